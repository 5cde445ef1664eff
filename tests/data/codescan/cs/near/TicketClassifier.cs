using System.Text.Json;
using OpenAI.Chat;

namespace Support;

/// <summary>Constant system prompt; the reply is parsed as JSON and checked against an allow-list.</summary>
public sealed class TicketClassifier
{
    private const string SystemPrompt = "Classify the ticket. Reply with JSON {\"category\": \"billing|bug|other\"}.";
    private static readonly HashSet<string> Categories = new() { "billing", "bug", "other" };
    private readonly ChatClient _chat;

    public TicketClassifier(ChatClient chat) => _chat = chat;

    public async Task<string> ClassifyAsync(string ticket)
    {
        ChatCompletion completion = await _chat.CompleteChatAsync(
            new SystemChatMessage(SystemPrompt), new UserChatMessage(ticket));
        try
        {
            using var doc = JsonDocument.Parse(completion.Content[0].Text);
            var category = doc.RootElement.GetProperty("category").GetString() ?? "other";
            return Categories.Contains(category) ? category : "other";
        }
        catch (JsonException)
        {
            return "other";
        }
    }
}
