func forward(c *gin.Context) {
	dest := c.DefaultQuery("dest", "")
	req, err := http.NewRequestWithContext(c.Request.Context(), http.MethodGet, dest, nil)
	if err != nil {
		c.Status(http.StatusBadRequest)
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.Status(http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	c.DataFromReader(resp.StatusCode, resp.ContentLength, resp.Header.Get("Content-Type"), resp.Body, nil)
}
