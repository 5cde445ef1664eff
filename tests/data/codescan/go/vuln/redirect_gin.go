	c.Redirect(http.StatusFound, c.DefaultQuery("return_to", "/"))
