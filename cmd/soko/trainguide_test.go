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

// TestRangeErrorsNameTheFlag: a value out of its range is refused with the
// flag, the value and the range, not a list of every flag's range.
func TestRangeErrorsNameTheFlag(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.bin")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--size", "0x0"}, "generate: bad --size \"0x0\": want each side 5 to 40"},
		{[]string{"generate", "--check-nodes", "0"}, "generate: bad --check-nodes \"0\": want at least 1"},
		{[]string{"train-dist", "--out", out, "--excursions", "101"}, "train-dist: bad --excursions \"101\": want 0 to 100"},
		{[]string{"train-lts", "--out", out, "--budget", "100", "--max-budget", "50"}, "train-lts: bad --max-budget \"50\": want at least --budget (100)"},
		{[]string{"train-lts", "--out", out, "--bits", "7"}, "train-lts: bad --bits \"7\": want 8 to 28"},
		{[]string{"train-puct", "--out", out, "--window", "0"}, "train-puct: bad --window \"0\": want 1 to 1048576"},
		{[]string{"train-guide", "--out", out, "--epochs", "1001"}, "train-guide: bad --epochs \"1001\": want 0 to 1000"},
	} {
		if got := usage(t, "", c.args...); got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}

// TestTrainNothingLearned: with no pass, the guide's loss is the zero
// model's (uniform); with no solution found, train-guide and train-lts say
// that nothing was learned, where they printed a loss of 0.
func TestTrainNothingLearned(t *testing.T) {
	dir := t.TempDir()
	out, _, err := soko(t, "", "train-guide", "--out", filepath.Join(dir, "g.bin"), "--levels", "0", "--epochs", "0", "--bits", "10", "microban:1-2")
	if err != nil || !strings.Contains(out, "log loss ") || strings.Contains(out, "0.0000") {
		t.Errorf("train-guide --epochs 0: %v\n%s", err, out)
	}
	out, _, err = soko(t, "", "train-guide", "--out", filepath.Join(dir, "g.bin"), "--levels", "0", "--nodes", "1", "--bits", "10", "xsokoban90:1")
	if err != nil || !strings.Contains(out, "no solution to learn from") || strings.Contains(out, "log loss") {
		t.Errorf("train-guide solving nothing: %v\n%s", err, out)
	}
	out, _, err = soko(t, "", "train-lts", "--out", filepath.Join(dir, "l.bin"), "--levels", "2", "--budget", "1", "--max-budget", "2", "--bits", "10")
	if err != nil || !strings.Contains(out, "no solution to learn from") || strings.Contains(out, "log loss") {
		t.Errorf("train-lts solving nothing: %v\n%s", err, out)
	}
}
