	sum := hmac.New(sha256.New, secret).Sum(body)
	if !bytes.Equal(sum, signature) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
