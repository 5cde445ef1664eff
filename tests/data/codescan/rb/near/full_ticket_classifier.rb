# Constant system prompt; the model's reply is parsed and checked against an allow-list.
class TicketClassifier
  SYSTEM_PROMPT = 'Classify the ticket. Reply with JSON {"category": "billing|bug|other"}.'.freeze
  CATEGORIES = %w[billing bug other].freeze

  def initialize(client = OpenAI::Client.new)
    @client = client
  end

  def classify(ticket)
    response = @client.chat(parameters: {
      model: 'gpt-4o-mini',
      max_tokens: 50,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: ticket }
      ]
    })
    data = JSON.parse(response.dig('choices', 0, 'message', 'content').to_s)
    CATEGORIES.include?(data['category']) ? data['category'] : 'other'
  rescue JSON::ParserError
    'other'
  end
end
