  def chat
    response = client.chat(parameters: {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: "You are #{params[:persona]}. Answer briefly." },
        { role: 'user', content: params[:message] }
      ]
    })
    render json: { reply: response.dig('choices', 0, 'message', 'content') }
  end
