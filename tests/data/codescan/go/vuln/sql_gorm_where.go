	name := c.Query("name")
	db.Where(fmt.Sprintf("name = '%s'", name)).Find(&users)
