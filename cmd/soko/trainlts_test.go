package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainLTSReproducible trains two tiny lts models with equal flags but
// -j 1 and -j 2: the files are equal byte for byte, the output names
// their SHA-256, and the lts solver reads the model and solves a level
// with it.
func TestTrainLTSReproducible(t *testing.T) {
	dir := t.TempDir()
	var models [][]byte
	for _, j := range []string{"1", "2"} {
		path := filepath.Join(dir, "m"+j+".bin")
		out, errOut, err := soko(t, "", "train-lts", "--out", path, "--levels", "12", "--rounds", "2", "--bits", "14", "-j", j)
		if err != nil {
			t.Fatalf("-j %s: %v\n%s", j, err, errOut)
		}
		if !strings.Contains(out, "trained a context model of 2^14 rows: 2 rounds") || !strings.Contains(out, "(sha256 ") {
			t.Errorf("-j %s: output %q", j, out)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, b)
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("-j 1 and -j 2 trained different models")
	}
	out, errOut, err := soko(t, "", "solve", "--algo", "lts", "--model", filepath.Join(dir, "m1.bin"), "--nodes", "100000", "--optimize", "off", "--json", "microban:1")
	if err != nil || !strings.Contains(out, `"status":"solved"`) || !strings.Contains(out, `"lts_bound":`) {
		t.Errorf("solve with the model: %v\n%s\n%s", err, out, errOut)
	}
	if _, _, err := soko(t, "", "train-lts", "--out", filepath.Join(dir, "x.bin"), "--rate", "0"); err == nil {
		t.Error("--rate 0 accepted")
	}
}

// TestTrainInterruptedKeepsModel: an interrupt before any training step
// leaves a model already at --out as it was, and says so, rather than
// replace it with starting weights.
func TestTrainInterruptedKeepsModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.lts")
	if _, errOut, err := soko(t, "", "train-lts", "--out", model, "--bits", "10", "--levels", "20", "--rounds", "1"); err != nil {
		t.Fatal(err, errOut)
	}
	before, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	err = run(ctx, []string{"train-lts", "--out", model, "--bits", "10", "--levels", "4000"}, strings.NewReader(""), &out, &errOut)
	after, _ := os.ReadFile(model)
	if !errors.Is(err, errInterrupted) || !strings.Contains(err.Error(), "nothing saved") || !bytes.Equal(before, after) {
		t.Errorf("interrupted at once: %v; the model kept: %v", err, bytes.Equal(before, after))
	}
}

// With --epochs 0 the levels solved are not learnt from, and the summary
// says why the model has its starting weights.
func TestTrainLTSNoEpochs(t *testing.T) {
	out, _, err := soko(t, "", "train-lts", "--out", filepath.Join(t.TempDir(), "m.bin"), "--levels", "12", "--rounds", "1", "--bits", "10", "--epochs", "0")
	if err != nil || !strings.Contains(out, "no training step (--epochs 0)") || strings.Contains(out, "no solution to learn from") {
		t.Errorf("%v:\n%s", err, out)
	}
}
