	name := r.URL.Query().Get("name")
	data, err := os.ReadFile(path.Join(dataDir, name))
	// handle err ...
	w.Write(data)
