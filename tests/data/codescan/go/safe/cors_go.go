	c := cors.New(cors.Options{
		AllowedOrigins:   []string{"https://app.example.com"},
		AllowCredentials: true,
	})
