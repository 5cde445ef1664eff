func ping(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Query().Get("host")
	if net.ParseIP(host) == nil {
		http.Error(w, "bad host", 400)
		return
	}
	out, _ := exec.Command("ping", "-c", "1", host).CombinedOutput()
	w.Write(out)
}
