package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainThenSolve trains a model with soko train, checks the model and
// the loss plot are written and a second run with the same seed writes the
// same model, then solves with it through soko solve --model.
func TestTrainThenSolve(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.bin")
	args := []string{"train", "microban:2-3", "--out", model, "--rounds", "4", "--time", "0", "--iterations", "200", "--channels", "8", "--blocks", "1"}
	out, errOut, err := soko(t, "", args...)
	if err != nil {
		t.Fatal(err, errOut)
	}
	if !strings.Contains(out, "4 rounds") || !strings.Contains(out, "model: "+model) {
		t.Errorf("train printed:\n%s", out)
	}
	first, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, "m.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("loss plot: %v", err)
	}
	if _, errOut, err := soko(t, "", args...); err != nil {
		t.Fatal(err, errOut)
	}
	if second, _ := os.ReadFile(model); !bytes.Equal(first, second) {
		t.Error("two runs with the same seed wrote different models")
	}
	out, errOut, err = soko(t, "", "solve", "--algo", "alphazero", "--model", model, "--iterations", "20000", "microban:1-3")
	if err != nil || !strings.Contains(out, "solved 3 of 3") {
		t.Errorf("solve with the model: %v %s\n%s", err, errOut, out)
	}
}

func TestTrainUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "microban:1"}, "--out FILE is required"},
		{[]string{"train", "--out", "x.bin"}, "no levels"},
		{[]string{"train", "microban:1", "--out", "x.bin", "--time", "0"}, "--rounds"},
		{[]string{"train", "microban:1", "--out", "x.bin", "--blocks", "0"}, "blocks 0"},
		{[]string{"train", "microban:1", "--out", "x.bin", "--iterations", "0"}, "--iterations"},
		{[]string{"train", "microban:1", "--out", "/no/such/folder/x.bin"}, "the folder /no/such/folder does not exist"},
		{[]string{"train", "microban:1", "--out", "x.bin", "--plot", "/no/such/folder/x.png"}, "--plot"},
	} {
		_, _, err := soko(t, "", c.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
	_, _, err := soko(t, "", "solve", "--algo", "alphazero", "--model", filepath.Join(t.TempDir(), "none.bin"), "microban:1")
	if err == nil || !strings.Contains(err.Error(), "none.bin") {
		t.Errorf("solve with a missing model: %v", err)
	}
}
