package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"os"

	"golang.org/x/crypto/bcrypt"
)

const (
	passwordMinLength = 12
	resetTokenBytes   = 32
)

var ErrInvalidCredentials = errors.New("invalid email or password")

type Service struct {
	DB        *sql.DB
	JWTSecret []byte
}

func NewService(db *sql.DB) *Service {
	return &Service{DB: db, JWTSecret: []byte(os.Getenv("JWT_SECRET"))}
}

func (s *Service) Register(email, password string) error {
	if len(password) < passwordMinLength {
		return errors.New("password too short")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	_, err = s.DB.Exec("INSERT INTO users (email, password_hash) VALUES ($1, $2)", email, hash)
	return err
}

func (s *Service) Login(email, password string) error {
	var hash []byte
	if err := s.DB.QueryRow("SELECT password_hash FROM users WHERE email = $1", email).Scan(&hash); err != nil {
		return ErrInvalidCredentials
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil {
		return ErrInvalidCredentials
	}
	return nil
}

func (s *Service) StartReset(email string) (string, error) {
	b := make([]byte, resetTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	resetToken := base64.RawURLEncoding.EncodeToString(b)
	_, err := s.DB.Exec("UPDATE users SET reset_token = $1 WHERE email = $2", resetToken, email)
	return resetToken, err
}

func (s *Service) CheckReset(email, token string) bool {
	var stored string
	if err := s.DB.QueryRow("SELECT reset_token FROM users WHERE email = $1", email).Scan(&stored); err != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(stored), []byte(token)) == 1
}
