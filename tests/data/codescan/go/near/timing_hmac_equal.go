	expectedMAC := mac.Sum(nil)
	if !hmac.Equal(expectedMAC, providedMAC) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
