	name := c.Query("name")
	// TODO: validate
	c.File(filepath.Join("./exports", name))
