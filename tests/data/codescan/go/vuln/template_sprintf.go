	page := fmt.Sprintf(`<h1>Hello {{.Site}}</h1><p>%s</p>`, r.URL.Query().Get("msg"))
	t := template.Must(template.New("x").Parse(page))
	t.Execute(w, data)
