func download(w http.ResponseWriter, r *http.Request) {
	name := filepath.Base(r.URL.Query().Get("file"))
	full := filepath.Join("/srv/files", name)
	if !strings.HasPrefix(full, "/srv/files/") {
		http.Error(w, "bad name", http.StatusBadRequest)
		return
	}
	http.ServeFile(w, r, full)
}
