package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A level's address is its position in its file, in every command; a
// "; n" comment is a title shown beside it. Files whose comments number
// their levels otherwise: one cut from a collection by soko show, one
// numbered in reverse, one with a number twice.
func TestLevelAddressIsPosition(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}

	// soko show microban:12,47 > mine.xsb writes "; 12" and "; 47".
	shown, _, err := soko(t, "", "show", "microban:12,47")
	if err != nil || !strings.HasPrefix(shown, "; 12\n") || !strings.Contains(shown, "\n; 47\n") {
		t.Fatalf("show: %v\n%s", err, shown)
	}
	mine := write("mine.xsb", shown)
	out, _, err := soko(t, "", "list", mine)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[0], mine+":1 ") || !strings.HasSuffix(lines[0], "boxes  12") ||
		!strings.HasPrefix(lines[1], mine+":2 ") || !strings.HasSuffix(lines[1], "boxes  47") {
		t.Errorf("list: %v\n%s", err, out)
	}
	var u usageError
	if _, _, err := soko(t, "", "solve", mine+":12"); !errors.As(err, &u) || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("solve mine.xsb:12: %v, want out of range", err)
	}
	out, _, err = soko(t, "", "solve", "--json", "--algo", "astar", mine+":2")
	var r record
	if err != nil || json.Unmarshal([]byte(finalRecords(out)), &r) != nil || r.Level != mine+":2" || r.Title != "47" || r.Status != solvedStatus {
		t.Errorf("solve mine.xsb:2: %v\n%s", err, out)
	}

	// Titles in reverse order: the address printed is the one asked for,
	// the title beside it.
	one, _, _ := soko(t, "", "show", "microban:1")
	two, _, _ := soko(t, "", "show", "microban:2")
	swapped := write("swapped.xsb", strings.Replace(two, "; 2", "; 2 B", 1)+"\n"+strings.Replace(one, "; 1", "; 1 A", 1))
	out, _, err = soko(t, "", "solve", "--algo", "astar", "--no-solution", swapped+":1")
	if err != nil || !strings.HasPrefix(out, swapped+":1 (2 B) ") {
		t.Errorf("solve swapped.xsb:1: %v\n%s", err, out)
	}

	// bench records carry the address; optimize --from finds by it the
	// level each record was solved on (on another level its solution
	// would not replay).
	results := filepath.Join(dir, "swapped.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--time", "5s", "--out", results, swapped); err != nil {
		t.Fatal(err, errOut)
	}
	titles := map[string]string{} // level → title, of the records
	for _, r := range readRuns(t, results) {
		titles[r.Level] = r.Title
	}
	if len(titles) != 2 || titles[swapped+":1"] != "2 B" || titles[swapped+":2"] != "1 A" {
		t.Fatalf("bench records' levels and titles %v", titles)
	}
	out, errOut, err := soko(t, "", "optimize", "--json", "--from", results)
	if err != nil || strings.Count(out, `"error"`) != 0 || !strings.Contains(out, `"level":"`+swapped+`:1"`) {
		t.Errorf("optimize --from: %v %s\n%s", err, errOut, out)
	}

	// Two levels that share "; 7" are two levels.
	seven := write("seven.xsb", "; 7\n#####\n#@$.#\n#####\n\n; 7\n######\n#@ $.#\n######\n")
	results = filepath.Join(dir, "seven.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--time", "5s", "--out", results, seven); err != nil {
		t.Fatal(err, errOut)
	}
	out, _, err = soko(t, "", "report", results)
	if err != nil || !strings.Contains(out, "(2 levels)") || !strings.Contains(out, "| astar | 2 |") {
		t.Errorf("report of two levels titled 7: %v\n%s", err, out)
	}
}

// A level is named once in every command: `solve z.xsb:1,1` said "solved 2
// of 2 levels", the same level twice. solve, bench and show refuse it as a
// usage error before any work, naming the level.
func TestLevelNamedTwiceRefused(t *testing.T) {
	dir := t.TempDir()
	z := filepath.Join(dir, "z.xsb")
	if err := os.WriteFile(z, []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	for _, args := range [][]string{
		{"solve", "--algo", "astar", z + ":1,1"},
		{"bench", "--algo", "astar", "--out", out, z + ":1,1"},
		{"show", z + ":1,1"},
		{"solve", "--algo", "astar", "microban:1-3", "microban:2"},
	} {
		stdout, _, err := soko(t, "", args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), " twice") && !strings.Contains(err.Error(), " both name level ") || stdout != "" {
			t.Errorf("%q: %v, stdout %q; want a usage error naming the level", args, err, stdout)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("bench wrote %s: %v", out, err)
	}
}
