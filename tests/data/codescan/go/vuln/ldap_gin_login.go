func login(c *gin.Context) {
	username := c.PostForm("username")
	req := ldap.NewSearchRequest(
		"ou=people,dc=example,dc=com",
		ldap.ScopeWholeSubtree, ldap.NeverDerefAliases, 0, 0, false,
		fmt.Sprintf("(&(objectClass=inetOrgPerson)(uid=%s))", username),
		[]string{"dn"},
		nil,
	)
	sr, err := conn.Search(req)
	if err != nil || len(sr.Entries) != 1 {
		c.AbortWithStatus(http.StatusUnauthorized)
		return
	}
	if err := conn.Bind(sr.Entries[0].DN, c.PostForm("password")); err != nil {
		c.AbortWithStatus(http.StatusUnauthorized)
		return
	}
	c.Status(http.StatusNoContent)
}
