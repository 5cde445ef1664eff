    private const string SystemPrompt = "You are the Acme assistant. Never disclose internal data.";

    public async Task<string> Chat(ChatRequest req)
    {
        ChatCompletion c = await _chat.CompleteChatAsync(new SystemChatMessage(SystemPrompt), new UserChatMessage(req.Message));
        return c.Content[0].Text;
    }
