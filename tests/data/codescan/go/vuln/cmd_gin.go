	branch := c.PostForm("branch")
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "git checkout "+branch)
	out, _ := cmd.CombinedOutput()
