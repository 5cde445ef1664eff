package storage

import (
	"os"
	"path/filepath"

	"github.com/google/uuid"
)

type Store struct{ Root string }

func (s Store) Save(data []byte) (string, error) {
	id := uuid.NewString()
	return id, os.WriteFile(filepath.Join(s.Root, id+".bin"), data, 0o600)
}

func (s Store) Load(id string) ([]byte, error) {
	if _, err := uuid.Parse(id); err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(s.Root, id+".bin"))
}
