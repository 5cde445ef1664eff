	cmdText := resp.Choices[0].Message.Content
	out, err := exec.Command("sh", "-c", cmdText).Output()
