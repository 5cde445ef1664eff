func TestLoginRejectsBadPassword(t *testing.T) {
	form := url.Values{"username": {"alice"}, "password": {"wrong-password"}}
	req := httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(form.Encode()))
	rec := httptest.NewRecorder()
	loginHandler(rec, req)
	if rec.Code != http.StatusUnauthorized {
		t.Fatalf("got %d", rec.Code)
	}
}
