	if r.Header.Get("Authorization") != "Bearer "+cfg.AdminToken {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
