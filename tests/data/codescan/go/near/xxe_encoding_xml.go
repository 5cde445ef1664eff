func importFeed(w http.ResponseWriter, r *http.Request) {
	dec := xml.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	var feed Feed
	if err := dec.Decode(&feed); err != nil {
		http.Error(w, "bad feed", http.StatusBadRequest)
		return
	}
	json.NewEncoder(w).Encode(feed.Items)
}
