	expectedMAC := mac.Sum(nil)
	if !bytes.Equal(expectedMAC, providedMAC) {
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}
