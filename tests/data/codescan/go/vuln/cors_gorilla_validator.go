	cors := handlers.CORS(
		handlers.AllowedOriginValidator(func(origin string) bool { return true }),
		handlers.AllowCredentials(),
		handlers.AllowedMethods([]string{"GET", "POST", "DELETE"}),
	)
	log.Fatal(http.ListenAndServe(":8080", cors(router)))
