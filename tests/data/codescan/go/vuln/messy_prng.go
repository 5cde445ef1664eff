	// random token for the invite link
	token := fmt.Sprintf("%016x", rand.Uint64())
	invites[token] = email
