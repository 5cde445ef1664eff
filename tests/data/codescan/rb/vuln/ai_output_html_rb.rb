  def answer
    reply = client.chat(parameters: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: params[:q] }] })
    answer = reply.dig('choices', 0, 'message', 'content')
    render html: answer.html_safe
  end
