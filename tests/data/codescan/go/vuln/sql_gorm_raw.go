	sort := c.Query("sort")
	db.Raw("SELECT * FROM products ORDER BY " + sort).Scan(&products)
