	client := openai.NewClient("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")
