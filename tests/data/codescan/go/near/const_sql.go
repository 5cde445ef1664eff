const countUsers = "SELECT COUNT(*) FROM users"

var tables = []string{"users", "orders"}

func Counts(db *sql.DB) map[string]int {
	out := map[string]int{}
	for _, t := range tables { // fixed table names
		var n int
		db.QueryRow("SELECT COUNT(*) FROM " + t).Scan(&n)
		out[t] = n
	}
	return out
}
