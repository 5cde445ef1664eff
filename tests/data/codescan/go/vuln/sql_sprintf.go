func getUser(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	query := fmt.Sprintf("SELECT name, email FROM users WHERE id = '%s'", id)
	row := db.QueryRow(query)
	var u User
	row.Scan(&u.Name, &u.Email)
	json.NewEncoder(w).Encode(u)
}
