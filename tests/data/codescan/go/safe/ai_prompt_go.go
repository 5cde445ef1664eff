const systemPrompt = "You are a concise assistant for Acme customers."

func messages(userText string) []openai.ChatCompletionMessage {
	return []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: systemPrompt},
		{Role: openai.ChatMessageRoleUser, Content: userText},
	}
}
