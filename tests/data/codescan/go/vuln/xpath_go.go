	user := r.FormValue("user")
	expr := fmt.Sprintf("//user[@name='%s']/role", user)
	node := xmlquery.FindOne(doc, expr)
