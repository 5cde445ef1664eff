func admins(w http.ResponseWriter, r *http.Request) {
	nodes, err := xmlquery.QueryAll(doc, "//user[@role='admin']/name")
	if err != nil {
		http.Error(w, "bad query", http.StatusInternalServerError)
		return
	}
	writeNames(w, nodes)
}
