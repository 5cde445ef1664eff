	rand.Seed(time.Now().UnixNano())
	sessionID := fmt.Sprintf("%x", rand.Int63())
