func render(w http.ResponseWriter, r *http.Request) {
	tmpl, err := template.New("page").Parse(r.FormValue("template"))
	if err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	tmpl.Execute(w, currentUser(r))
}
