func parseUpload(r *http.Request) (*Invoice, error) {
	var inv Invoice
	// encoding/xml does not fetch external entities or expand custom entities.
	if err := xml.NewDecoder(r.Body).Decode(&inv); err != nil {
		return nil, err
	}
	return &inv, nil
}
