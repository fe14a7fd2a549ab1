package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchModel: soko bench --model gives a model trained by soko train
// to every run, and its name labels the runs, so a results file holds runs
// with and without it apart and resumes each. Runs without a model are
// counted on standard error as Schokoban's.
func TestBenchModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.bin")
	if _, errOut, err := soko(t, "", "train", "microban:2-3", "--out", model, "--rounds", "2", "--time", "0",
		"--iterations", "200", "--channels", "8", "--blocks", "1"); err != nil {
		t.Fatal(err, errOut)
	}
	out := filepath.Join(dir, "r.jsonl")
	bench := func(args ...string) string {
		t.Helper()
		args = append([]string{"bench", "--algo", "alphazero", "--iterations", "20000", "-j", "1", "--out", out, "microban:1-2"}, args...)
		_, errOut, err := soko(t, "", args...)
		if err != nil {
			t.Fatal(err, errOut)
		}
		return errOut
	}
	if e := bench(); !strings.Contains(e, "2 runs of alphazero had no model, so alphazero ran as Schokoban") {
		t.Errorf("without --model: %q; want a note that 2 runs had no model", e)
	}
	if e := bench("--model", model); !strings.Contains(e, "0 done before, 2 run now: 2 solved") || strings.Contains(e, "no model") {
		t.Errorf("with --model after runs without: %q; want 2 new runs solved, no note", e)
	}
	if e := bench("--model", model); !strings.Contains(e, "2 done before, 0 run now") {
		t.Errorf("resumed with --model: %q; want nothing run", e)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]int{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Key    string           `json:"key"`
			Status string           `json:"status"`
			Model  string           `json:"model"`
			Counts map[string]int64 `json:"counts"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		models[r.Model]++
		if r.Model != "" && (!strings.HasPrefix(r.Model, "m.bin@") || !strings.HasPrefix(r.Key, "alphazero(model="+r.Model+")|")) {
			t.Errorf("record with model %q and key %q; want m.bin@HASH in both", r.Model, r.Key)
		}
		if r.Status != "solved" || (r.Counts["without_model"] == 1) != (r.Model == "") {
			t.Errorf("%s: %s, counts %v", r.Key, r.Status, r.Counts)
		}
	}
	if len(models) != 2 || models[""] != 2 {
		t.Errorf("runs by model %v; want 2 without and 2 with one", models)
	}
}

// TestBenchWithoutModelNamesSolver: the note on runs without a model names
// each solver that ran and what it ran as; puct's once said "alphazero ran
// as Schokoban".
func TestBenchWithoutModelNamesSolver(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	_, errOut, err := soko(t, "", "bench", "--algo", "puct,greedy-dist,astar", "-j", "1", "--out", out, "microban:1")
	if err != nil {
		t.Fatal(err, errOut)
	}
	for _, want := range []string{
		"1 run of puct had no model, so puct ran as PUCT with uniform priors and the pull-distance matching bound as its value",
		"1 run of greedy-dist had no model, so greedy-dist ran as greedy best-first on the pull-distance matching bound",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q; want %q", errOut, want)
		}
	}
	if strings.Contains(errOut, "alphazero") || strings.Contains(errOut, "astar had no model") {
		t.Errorf("stderr %q names a solver that did not run without a model", errOut)
	}
}

// TestBenchBadModel: a model file that is not a model is one error naming
// the file before any run, as with soko solve, not a usage error; one that
// is missing is a usage error, as every input file that does not exist;
// either way no results file is begun.
func TestBenchBadModel(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text.bin")
	if err := os.WriteFile(text, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.jsonl")
	for _, model := range []string{text, filepath.Join(dir, "none.bin")} {
		_, _, err := soko(t, "", "bench", "--algo", "alphazero", "--model", model, "--out", out, "microban:1")
		var u usageError
		if err == nil || errors.As(err, &u) != (model != text) || !strings.Contains(err.Error(), model) || !strings.HasPrefix(err.Error(), "bench: ") {
			t.Errorf("bench --model %s: %v; want an error of bench naming the file", model, err)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("bench --model %s began the results file: %v", model, err)
		}
	}
}
