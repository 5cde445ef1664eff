	key := r.Header.Get("X-API-Key")
	if key != os.Getenv("API_KEY") {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
