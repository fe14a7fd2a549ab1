package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Model is a trained model file given to every run of a solver
// (solver.Options.Model, soko bench --model).
type Model struct {
	Path string // the file, as given
	ID   string // its name in labels, keys and records: ModelID
}

// NewModel names the model file path by ModelID.
func NewModel(path string) (Model, error) {
	id, err := ModelID(path)
	if err != nil {
		return Model{}, err
	}
	return Model{Path: path, ID: id}, nil
}

// ModelID is a model file's base name and the first 8 hex digits of the
// SHA-256 of its contents, "m.bin@1a2b3c4d": two files of one name, or a
// file retrained in place, are told apart, and one file moved is not.
func ModelID(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("model %s: %w", path, err)
	}
	return filepath.Base(path) + "@" + hex.EncodeToString(h.Sum(nil))[:8], nil
}
