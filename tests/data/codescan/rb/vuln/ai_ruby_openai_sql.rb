  def answer(question)
    response = client.chat(parameters: {
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "One PostgreSQL SELECT for: #{question}" }]
    })
    sql = response.dig("choices", 0, "message", "content")
    ActiveRecord::Base.connection.select_all(sql).to_a
  end
