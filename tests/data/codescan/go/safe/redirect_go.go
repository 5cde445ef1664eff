func loginCallback(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Query().Get("next")
	// url.Parse rejects control characters; a backslash is refused because browsers read "/\host" as "//host"
	if u, err := url.Parse(next); err != nil || u.IsAbs() || u.Host != "" || !strings.HasPrefix(next, "/") ||
		strings.HasPrefix(next, "//") || strings.Contains(next, `\`) {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusFound)
}
