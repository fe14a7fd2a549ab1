package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"soko/nn"
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
		{[]string{"train", "microban:1", "--out", "x.bin", "--channels", "256", "--blocks", "32", "--memory", "64MiB"}, "--memory"},
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

// TestTrainInterrupted: an interrupt in the middle of a training step that
// takes tens of seconds ends soko train promptly, and the model trained so
// far is saved.
func TestTrainInterrupted(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.bin")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const after, margin = 500 * time.Millisecond, 2 * time.Second
	time.AfterFunc(after, cancel)
	start := time.Now()
	var out, errOut bytes.Buffer
	err := run(ctx, []string{"train", "microban:2", "--out", model, "--time", "1m", "--iterations", "100", "--channels", "128", "--blocks", "8"},
		strings.NewReader(""), &out, &errOut)
	elapsed := time.Since(start)
	if !errors.Is(err, errInterrupted) || elapsed > after+margin {
		t.Errorf("interrupted after %v: %v after %v, want an interrupt within %v", after, err, elapsed, after+margin)
	}
	if _, err := nn.Load(model); err != nil {
		t.Errorf("the model trained so far: %v\n%s", err, out.String())
	}
}

// train with --rounds and no --time has no time limit: the rounds decide,
// so that a slow machine gives the same model; --time given still ends it.
func TestTrainRoundsWithoutTime(t *testing.T) {
	for _, c := range []struct {
		args []string
		want time.Duration
	}{{[]string{"--rounds", "3"}, 0}, {[]string{"--rounds", "3", "--time", "2m"}, 2 * time.Minute}, {nil, 5 * time.Minute}} {
		fs, cfg := trainFlags()
		if _, err := parseArgs(fs, c.args); err != nil {
			t.Fatal(err)
		}
		cfg.roundsDecide()
		if cfg.opts.Time != c.want {
			t.Errorf("%q: time %v, want %v", c.args, cfg.opts.Time, c.want)
		}
	}
}

// train-dist --measure refuses a model that is no regular file (a FIFO
// would be waited on for ever), as the solvers' --model does.
func TestTrainDistMeasureFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, _, err := soko(t, "", "train-dist", "--measure", "--model", fifo, "microban:1"); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a FIFO model: %v", err)
	}
}
