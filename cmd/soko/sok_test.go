package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/sokfile"
)

// The .sok round trip: solve a collection into a .sok file, verify it,
// solve it again (nothing repeated, a better solution replaces a worse
// one), optimize it in place.
func TestSokRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.sok")
	bad := unloadableFile(t)

	// --no-solution leaves the LURD off the screen, not out of the file.
	// fess's own solutions (--optimize=off), so that astar's can beat one.
	out, errOut, err := soko(t, "", "solve", "--optimize=off", "--no-solution", "--time", "10s", "--out", path, "microban:1-3", bad+":3")
	if !errors.Is(err, errSilent) || strings.Contains(out, "dlUrrrd") || !strings.Contains(errOut, "3 levels, 3 solutions new or better, in "+path) ||
		!strings.Contains(errOut, "not added to "+path+": "+bad+":3") {
		t.Fatalf("solve --out: %v\n%s\n%s", err, out, errOut)
	}
	text := readText(t, path)
	// Every level gets a Title: line, an untitled one its collection's
	// name and number.
	if strings.Count(text, "\nSolution (") != 3 || strings.Count(text, "\nSolver: soko fess\n") != 3 || strings.Count(text, "\nDate: ") != 3 ||
		!strings.Contains(text, "\nTitle: Microban 1\n") || !strings.Contains(text, "\nTitle: Microban 3\n") ||
		!strings.Contains(text, "\nSolution (8 pushes, 33 moves)\ndlUrrrdLullddrUluRuulDrddrruLdlUU\n") {
		t.Fatalf("the .sok file:\n%s", text)
	}

	out, _, err = soko(t, "", "verify", path)
	if err != nil || strings.Count(out, ": solved in ") != 3 || !strings.Contains(out, path+": 3 of 3 solutions solve their levels") {
		t.Fatalf("verify: %v\n%s", err, out)
	}

	// The same solver again adds nothing; astar's shorter solution of
	// level 3 replaces fess's, which it beats in pushes and moves.
	if _, _, err := soko(t, "", "solve", "--optimize", "off", "--time", "10s", "--out", path, path); err != nil {
		t.Fatal(err)
	}
	if again := readText(t, path); again != text {
		t.Errorf("solved again, the file changed:\n%s", again)
	}
	_, errOut, err = soko(t, "", "solve", "--algo", "astar", "--time", "10s", "--out", path, "microban:3")
	if err != nil || !strings.Contains(errOut, "1 level, 1 solution new or better") {
		t.Fatalf("astar: %v\n%s", err, errOut)
	}
	text = readText(t, path)
	if strings.Count(text, "\nSolution (") != 3 || !strings.Contains(text, "\nSolution (13 pushes, 41 moves)\n") || !strings.Contains(text, "\nSolver: soko astar, optimized for pushes\n") {
		t.Fatalf("after astar:\n%s", text)
	}

	// A detour in level 1's solution: optimize adds the shorter one beside
	// it, then --replace drops the old one.
	long := "ududdlUrrrdLullddrUluRuulDrddrruLdlUU"
	text = strings.Replace(text, "dlUrrrdLullddrUluRuulDrddrruLdlUU", long, 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = soko(t, "", "optimize", "--time", "10s", "--metric", "moves", path)
	if err != nil || !strings.Contains(out, "moves    37 →    33") || !strings.Contains(out, "1 solution new or better in "+path) {
		t.Fatalf("optimize: %v\n%s", err, out)
	}
	text = readText(t, path)
	if !strings.Contains(text, long) || !strings.Contains(text, "\nSolution (8 pushes, 33 moves)\n") || !strings.Contains(text, "Solver: soko optimize --metric moves,pushes (from soko fess)") {
		t.Fatalf("optimized, the old solution kept:\n%s", text)
	}
	if _, _, err := soko(t, "", "optimize", "--time", "10s", "--replace", path); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); strings.Contains(got, long) || !strings.Contains(got, "\nSolution (8 pushes, 33 moves)\n") {
		t.Errorf("--replace with the shorter one there already: the old one kept\n%s", got)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil { // both again, for what follows
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(text, "\nSolution (8 pushes, 33 moves)\n", "\nSolution\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "verify", path); err != nil {
		t.Fatal(err)
	}

	// A solution that does not solve its level fails verify, naming its line.
	broken := strings.Replace(readText(t, path), long, "ududdl", 1)
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = soko(t, "", "verify", path)
	if !errors.Is(err, errSilent) || !strings.Contains(out, path+":1 (Microban 1): solution at line 11: not solved") || !strings.Contains(out, "3 of 4 solutions") {
		t.Errorf("verify of a broken solution: %v\n%s", err, out)
	}
}

// Replacing: with --replace the optimized solution takes the place of the
// one it beats.
func TestSokOptimizeReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.sok")
	text := "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n\nSolution\nududdlUrrrdLullddrUluRuulDrddrruLdlUU\nSolver: hand\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "optimize", "--time", "10s", "--replace", "--no-solution", path); err != nil {
		t.Fatal(err)
	}
	got := readText(t, path)
	if strings.Count(got, "\nSolution") != 1 || strings.Contains(got, "udud") || !strings.Contains(got, "(from hand)") {
		t.Errorf("after --replace:\n%s", got)
	}
}

// Bad targets and inputs are refused before any work, naming the file.
func TestSokRefused(t *testing.T) {
	dir := t.TempDir()
	if msg := usage(t, "", "solve", "--out", dir, "microban:1"); !strings.Contains(msg, "not a regular file") {
		t.Errorf("--out a folder: %s", msg)
	}
	if msg := usage(t, "", "verify", filepath.Join(dir, "none.sok")); !strings.Contains(msg, "no such .sok file "+filepath.Join(dir, "none.sok")) {
		t.Errorf("verify of a missing file: %s", msg)
	}
	notSok := filepath.Join(dir, "x.sok")
	if err := os.WriteFile(notSok, []byte("Solution\nR\n\n#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := soko(t, "", "solve", "--out", notSok, "microban:1")
	if err == nil || !strings.Contains(err.Error(), notSok+":1: a solution before the first level") {
		t.Errorf("--out a file that is not .sok: %v", err)
	}
	if msg := usage(t, "", "optimize", "--out", filepath.Join(dir, "o.jsonl"), notSok); !strings.Contains(msg, "in place") {
		t.Errorf("optimize FILE.sok --out: %s", msg)
	}
	empty := filepath.Join(dir, "e.sok")
	if err := os.WriteFile(empty, []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := soko(t, "", "verify", empty); err == nil || !strings.Contains(err.Error(), "has no solutions") {
		t.Errorf("verify of a file without solutions: %v", err)
	}
	// A level that cannot be loaded and so has nothing to replay: the
	// error says why it cannot.
	broken := filepath.Join(dir, "b.sok")
	if err := os.WriteFile(broken, []byte("#####\n#@*.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"verify", "optimize"} {
		if _, _, err := soko(t, "", cmd, broken); err == nil || !strings.HasSuffix(err.Error(), "; a level cannot be loaded: "+broken+":1: level 1: 1 box but 2 goals") {
			t.Errorf("%s of a file whose level cannot be loaded: %v", cmd, err)
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// soko bench --sok puts each level with its verified solutions in a .sok
// file, also with --no-solution, and leaves the level that cannot be
// loaded out.
func TestBenchSok(t *testing.T) {
	dir := t.TempDir()
	path, results := filepath.Join(dir, "b.sok"), filepath.Join(dir, "r.jsonl")
	bad := unloadableFile(t)
	_, errOut, err := soko(t, "", "bench", "-j", "1", "--time", "10s", "--algo", "fess,astar", "--no-solution", "--out", results, "--sok", path, "microban:1-2", bad+":3")
	if !errors.Is(err, errSilent) || !strings.Contains(errOut, "bench: 2 levels, ") || !strings.Contains(errOut, "not added to "+path+": "+bad+":3") {
		t.Fatalf("bench --sok: %v\n%s", err, errOut)
	}
	for _, r := range readRuns(t, results) {
		if r.Solution != "" {
			t.Errorf("--no-solution, and %s has its solution in the results", r.Key)
		}
	}
	text := readText(t, path)
	if strings.Count(text, "\nSolution (") != 2 || !strings.Contains(text, "\nSolution (8 pushes, 33 moves)\n") || !strings.Contains(text, "\nSolver: soko fess, optimized for pushes\n") {
		t.Fatalf("the .sok file:\n%s", text)
	}
	out, _, err := soko(t, "", "verify", path)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
}

// TestSolverNoteOneForm: soko solve --out and soko bench --sok write the
// same "Solver:" note for a solver with parameters (they once wrote
// "soko wastar (w=200)" and "soko wastar(w=200)").
func TestSolverNoteOneForm(t *testing.T) {
	dir := t.TempDir()
	solved, benched := filepath.Join(dir, "solve.sok"), filepath.Join(dir, "bench.sok")
	if _, errOut, err := soko(t, "", "solve", "microban:1", "--algo", "wastar", "--param", "w=200", "--no-solution", "--out", solved); err != nil {
		t.Fatalf("solve: %v\n%s", err, errOut)
	}
	if _, errOut, err := soko(t, "", "bench", "microban:1", "--algo", "wastar", "--param", "w=200", "--out", filepath.Join(dir, "r.jsonl"), "--sok", benched); err != nil {
		t.Fatalf("bench: %v\n%s", err, errOut)
	}
	note := func(path string) string {
		t.Helper()
		f, err := sokfile.ReadFile(path)
		if err != nil || len(f.Entries) != 1 || len(f.Entries[0].Solutions) != 1 {
			t.Fatalf("%s: %v", path, err)
		}
		return f.Entries[0].Solutions[0].Solver
	}
	if a, b := note(solved), note(benched); a != b || a != "soko wastar (w=200), optimized for pushes" {
		t.Errorf("solve --out writes %q, bench --sok %q; want both \"soko wastar (w=200), optimized for pushes\"", a, b)
	}
}
