	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{
		Skipper: func(c echo.Context) bool { return true },
		TokenLookup: "header:X-CSRF-Token",
	}))
