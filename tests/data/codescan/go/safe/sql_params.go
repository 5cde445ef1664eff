func getUser(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	row := db.QueryRow("SELECT name, email FROM users WHERE id = $1", id)
	var u User
	row.Scan(&u.Name, &u.Email)
	json.NewEncoder(w).Encode(u)
}
