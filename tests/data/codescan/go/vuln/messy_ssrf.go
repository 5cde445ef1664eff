```go
func importFeed(w http.ResponseWriter, r *http.Request) {
	target := r.FormValue("target")
	// ...
	resp, err := client.Get(target)
	if err != nil {
		...
	}
```
