func lookup(w http.ResponseWriter, r *http.Request) {
	username := r.URL.Query().Get("username")
	searchRequest := ldap.NewSearchRequest(
		"dc=example,dc=com",
		ldap.ScopeWholeSubtree, ldap.NeverDerefAliases, 0, 0, false,
		fmt.Sprintf("(&(objectClass=organizationalPerson)(uid=%s))", username),
		[]string{"dn", "cn"},
		nil,
	)
	sr, err := conn.Search(searchRequest)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	json.NewEncoder(w).Encode(sr.Entries)
}
