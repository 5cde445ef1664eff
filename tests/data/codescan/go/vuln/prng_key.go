	key := make([]byte, 32)
	mrand.Read(key)
	block, _ := aes.NewCipher(key)
