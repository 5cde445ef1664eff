func (h *Handler) TestWebhook(c echo.Context) error {
	var body struct {
		URL string `json:"url"`
	}
	if err := c.Bind(&body); err != nil {
		return err
	}
	resp, err := http.Post(body.URL, "application/json", strings.NewReader(`{"event":"ping"}`))
	if err != nil {
		return err
	}
	return c.NoContent(resp.StatusCode)
}
