var page = template.Must(template.ParseFiles("templates/page.html"))

func render(w http.ResponseWriter, r *http.Request) {
	page.Execute(w, map[string]string{"Msg": r.URL.Query().Get("msg")})
}
