	c.SetCookie("auth_token", token, 3600, "/", "", false, false)
