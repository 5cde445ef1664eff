	code := rand.Intn(900000) + 100000
