    [HttpPost("chat")]
    public async Task<string> Chat([FromBody] ChatRequest req)
    {
        ChatCompletion completion = await _chat.CompleteChatAsync(
            new SystemChatMessage($"You are {req.Persona}. Never disclose internal data."),
            new UserChatMessage(req.Message));
        return completion.Content[0].Text;
    }
