func loginCallback(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Query().Get("next")
	if u, err := url.Parse(next); err != nil || u.IsAbs() || u.Host != "" || !strings.HasPrefix(next, "/") {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusFound)
}
