	resp, err := client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:    openai.GPT4oMini,
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "bash one-liner to " + goal}},
	})
	if err != nil {
		return "", err
	}
	out, err := exec.Command("bash", "-c", resp.Choices[0].Message.Content).CombinedOutput()
