	key := r.Header.Get("X-API-Key")
	if subtle.ConstantTimeCompare([]byte(key), []byte(os.Getenv("API_KEY"))) != 1 {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
