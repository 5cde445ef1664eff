func profile(w http.ResponseWriter, r *http.Request) {
	bio := r.FormValue("bio")
	data := map[string]any{"Bio": template.HTML("<p>" + template.HTMLEscapeString(bio) + "</p>")}
	tmpl.ExecuteTemplate(w, "profile.html", data)
}
