	r.GET("/logs/:name", func(c *gin.Context) {
		data, err := os.ReadFile("/var/log/app/" + c.Param("name"))
		if err != nil {
			c.Status(http.StatusNotFound)
			return
		}
		c.Data(http.StatusOK, "text/plain", data)
	})
