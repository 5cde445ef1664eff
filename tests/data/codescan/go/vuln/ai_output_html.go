	answer := resp.Choices[0].Message.Content
	tmpl.Execute(w, map[string]any{"Answer": template.HTML(answer)})
