func findBooks(c *gin.Context) {
	author := c.Query("author")
	expr := fmt.Sprintf("//book[author='%s']/title", author)
	nodes, err := xmlquery.QueryAll(catalogDoc, expr)
	if err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "bad query"})
		return
	}
	titles := make([]string, 0, len(nodes))
	for _, n := range nodes {
		titles = append(titles, n.InnerText())
	}
	c.JSON(http.StatusOK, gin.H{"titles": titles})
}
