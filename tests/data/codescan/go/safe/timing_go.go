func verifySignature(body []byte, sig string) bool {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	given, err := hex.DecodeString(sig)
	return err == nil && hmac.Equal(mac.Sum(nil), given)
}

func checkToken(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(cfg.AdminToken)) == 1
}
