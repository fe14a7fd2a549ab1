package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"soko/bench"
)

// soko report on a results file that does not exist is a usage error
// (exit status 2, docs/commands.md), named, before any work; so is a bad
// --time.
func TestReportMissingFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.jsonl")
	out := filepath.Join(dir, "out")
	msg := usage(t, "", "report", "--out-dir", out, missing)
	if !strings.Contains(msg, missing+" does not exist") {
		t.Errorf("message %q does not name the file", msg)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused report made its --out-dir")
	}
	_, _, err := soko(t, "", "report", missing)
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	if code := exitCode(err, devnull); code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	results := writeResults(t, dir)
	if msg := usage(t, "", "report", "--time", "user", results); !strings.Contains(msg, `bad --time "user": want a kind of time: solve, wall, cpu`) {
		t.Errorf("bad --time: %q", msg)
	}
	if msg := usage(t, "", "report", "-t", "user", results); !strings.Contains(msg, `bad -t "user"`) {
		t.Errorf("bad -t: %q", msg)
	}
	// --benchstat prints and writes nothing else: no folder is made.
	folder := filepath.Join(dir, "made")
	if msg := usage(t, "", "report", "--benchstat", "--out-dir", folder, results); !strings.Contains(msg, "--out-dir does not go with it") {
		t.Errorf("--benchstat --out-dir: %q", msg)
	}
	if _, err := os.Stat(folder); err == nil {
		t.Error("--benchstat --out-dir made the folder")
	}
}

// --time chooses the time of the tables: a run that searched for 2 ms and
// optimized for 498 ms shows 2 ms by default, 500 ms with --time wall and
// its CPU time with --time cpu.
func TestReportTimeFlag(t *testing.T) {
	results := writeResults(t, t.TempDir())
	for _, tc := range []struct {
		flag []string
		want string
	}{
		{nil, "| microban | fess | t=1s | 1 | 1 | 2.00 ms | 2.00 ms | 2.00 ms | 500 ms | 300 ms |"},
		{[]string{"--time", "wall"}, "| microban | fess | t=1s | 1 | 1 | 500 ms | 500 ms | 500 ms | 2.00 ms | 300 ms |"},
		{[]string{"--time", "cpu"}, "| microban | fess | t=1s | 1 | 1 | 300 ms | 300 ms | 300 ms | 2.00 ms | 500 ms |"},
	} {
		out, _, err := soko(t, "", append(append([]string{"report"}, tc.flag...), results)...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("report %v: %v; want the row %q:\n%s", tc.flag, err, tc.want, out)
		}
	}
}

// writeResults writes a results file of one solved run in dir.
func writeResults(t *testing.T, dir string) string {
	t.Helper()
	r := bench.Record{Solver: "fess", Level: "microban:1", Budget: bench.Budget{Time: time.Second}, Seed: 1, Status: "solved", Verified: true,
		Pushes: 8, Moves: 33, FoundPushes: 9, FoundMoves: 35, SolveS: 0.002, OptimizeS: 0.498, WallS: 0.5, CPUS: 0.3, CPUScope: bench.CPUThread}
	r.Key = r.RunKey()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "r.jsonl")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Two results files of one bench run again (two builds) are two arms with
// --by-file: the tables name each by its file and count its own runs.
// Without it the report keeps the first file's runs and says on stderr
// that the second repeats them, and how to compare them; --by-file with one
// file is a usage error.
func TestReportByFile(t *testing.T) {
	dir := t.TempDir()
	base := writeResults(t, dir)
	newer := filepath.Join(dir, "new.jsonl")
	r := bench.Record{Solver: "fess", Level: "microban:1", Budget: bench.Budget{Time: time.Second}, Seed: 1, Status: "time limit", SolveS: 1, WallS: 1, CPUS: 1, CPUScope: bench.CPUThread}
	r.Key = r.RunKey()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(newer, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := soko(t, "", "report", base, newer)
	if err != nil || !strings.Contains(out, "| fess | 1 |") {
		t.Errorf("report of both: %v; want the first file's solved run:\n%s", err, out)
	}
	for _, want := range []string{newer + ": 1 run repeats a run of " + base, "--by-file"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q, want %q in it", stderr, want)
		}
	}
	out, _, err = soko(t, "", "report", "--by-file", base, newer)
	if err != nil || !strings.Contains(out, "| fess@r | 1 |") || !strings.Contains(out, "| fess@new | 0 |") {
		t.Errorf("report --by-file: %v; want the arms fess@r (1 solved) and fess@new (0):\n%s", err, out)
	}
	if msg := usage(t, "", "report", "--by-file", base); !strings.Contains(msg, "give two or more") {
		t.Errorf("--by-file with one file: %q", msg)
	}
	// A file that holds no runs is the file's fault, not the command line's:
	// status 1, naming the file and line.
	notes := filepath.Join(dir, "notes.jsonl")
	if err := os.WriteFile(notes, []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = soko(t, "", "report", "--by-file", base, notes)
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	if code := exitCode(err, devnull); code != 1 || !strings.Contains(fmt.Sprint(err), notes+":1: not a soko bench record") {
		t.Errorf("--by-file with a file of notes: status %d, %v; want 1 and the file's line", code, err)
	}
}
