func Preview(c *gin.Context) {
	link := c.Query("link")
	req, _ := http.NewRequestWithContext(c, http.MethodGet, link, nil)
	resp, err := httpClient.Do(req)
	if err != nil {
		c.JSON(http.StatusBadGateway, gin.H{"error": err.Error()})
		return
	}
	defer resp.Body.Close()
	c.DataFromReader(http.StatusOK, resp.ContentLength, resp.Header.Get("Content-Type"), resp.Body, nil)
}
