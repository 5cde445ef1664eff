func userFromRequest(r *http.Request) (string, error) {
	raw := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	token, _, err := jwt.NewParser().ParseUnverified(raw, jwt.MapClaims{})
	if err != nil {
		return "", err
	}
	return token.Claims.(jwt.MapClaims)["sub"].(string), nil
}
