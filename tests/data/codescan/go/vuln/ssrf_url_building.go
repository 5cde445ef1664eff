	svc := r.Header.Get("X-Backend")
	u := fmt.Sprintf("http://%s.internal:8080/api/status", svc)
	resp, err := http.Get(u)
