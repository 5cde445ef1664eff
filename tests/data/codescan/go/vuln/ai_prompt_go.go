func chat(w http.ResponseWriter, r *http.Request) {
	var req ChatRequest
	json.NewDecoder(r.Body).Decode(&req)
	resp, err := client.CreateChatCompletion(r.Context(), openai.ChatCompletionRequest{
		Model: openai.GPT4o,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You are " + req.Persona + ". Keep answers short."},
			{Role: openai.ChatMessageRoleUser, Content: req.Message},
		},
	})
	if err != nil {
		http.Error(w, err.Error(), 502)
		return
	}
	fmt.Fprint(w, resp.Choices[0].Message.Content)
}
