package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainGuideReproducible trains two tiny guides with equal flags but
// -j 1 and -j 2, on generated levels and a collection: the files are
// equal byte for byte, the output names their SHA-256, fess reads the
// model and solves a level with it, and a guide given to lts is refused
// by name.
func TestTrainGuideReproducible(t *testing.T) {
	dir := t.TempDir()
	var models [][]byte
	for _, j := range []string{"1", "2"} {
		path := filepath.Join(dir, "g"+j+".bin")
		out, errOut, err := soko(t, "", "train-guide", "--out", path, "--levels", "10", "--nodes", "5000", "--bits", "12", "-j", j, "microban:1-6")
		if err != nil {
			t.Fatalf("-j %s: %v\n%s", j, err, errOut)
		}
		if !strings.Contains(out, "trained the guide (2^12 rows) on ") || !strings.Contains(out, "(16 levels)") || !strings.Contains(out, "(sha256 ") {
			t.Errorf("-j %s: output %q", j, out)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, b)
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("-j 1 and -j 2 trained different guides")
	}
	model := filepath.Join(dir, "g1.bin")
	out, errOut, err := soko(t, "", "solve", "--algo", "fess", "--model", model, "--nodes", "100000", "--json", "microban:7")
	if err != nil || !strings.Contains(out, `"status":"solved"`) {
		t.Errorf("solve with the guide: %v\n%s\n%s", err, out, errOut)
	}
	// A guide given to lts is one error before any level, naming the
	// solver and the file.
	if out, _, err := soko(t, "", "solve", "--algo", "lts", "--model", model, "microban:1"); err == nil || out != "" ||
		!strings.Contains(err.Error(), "--model for solver lts: "+model+": not a valid lts model") {
		t.Errorf("lts with a guide: %v, %q", err, out)
	}
	if _, _, err := soko(t, "", "train-guide", "--out", filepath.Join(dir, "x.bin"), "--levels", "0"); err == nil {
		t.Error("--levels 0 without LEVELS accepted")
	}
}
