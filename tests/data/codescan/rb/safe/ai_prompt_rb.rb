SYSTEM_PROMPT = 'You are the Acme assistant. Answer briefly.'.freeze

  def chat
    messages = [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: params[:message] }]
    render json: { reply: client.chat(parameters: { model: 'gpt-4o', messages: messages }) }
  end
