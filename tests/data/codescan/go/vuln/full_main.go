package main

import (
	"io"
	"log"
	"net/http"
)

func proxy(w http.ResponseWriter, r *http.Request) {
	upstream := r.URL.Query().Get("u")
	resp, err := http.Get(upstream)
	if err != nil {
		http.Error(w, "upstream error", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	io.Copy(w, resp.Body)
}

func main() {
	http.HandleFunc("/proxy", proxy)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
