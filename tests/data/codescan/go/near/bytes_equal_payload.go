	if bytes.Equal(body, cached.Body) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
