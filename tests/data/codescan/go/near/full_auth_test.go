package auth

import "testing"

const testPassword = "correct horse battery staple"

func TestRegisterAndLogin(t *testing.T) {
	s := newTestService(t)
	if err := s.Register("a@example.com", testPassword); err != nil {
		t.Fatal(err)
	}
	if err := s.Login("a@example.com", testPassword); err != nil {
		t.Fatalf("login: %v", err)
	}
	if err := s.Login("a@example.com", "wrong-password"); err != ErrInvalidCredentials {
		t.Fatalf("want ErrInvalidCredentials, got %v", err)
	}
}

func TestResetTokenIsRandom(t *testing.T) {
	s := newTestService(t)
	a, _ := s.StartReset("a@example.com")
	b, _ := s.StartReset("a@example.com")
	if a == b {
		t.Fatal("reset tokens repeat")
	}
}
