	generated := strings.TrimSpace(completion.Choices[0].Message.Content)
	rows, err := db.QueryContext(ctx, generated)
