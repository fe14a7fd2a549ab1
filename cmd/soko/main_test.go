package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"soko/internal/golden"
	"strings"
	"testing"
)

// soko runs the command in-process and returns stdout, stderr and the error.
func soko(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestList(t *testing.T) {
	out, _, err := soko(t, "", "list")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "list.golden", out)
	out, _, err = soko(t, "", "list", "microban")
	if err != nil || strings.Count(out, "\n") != 155 || !strings.Contains(out, "The Dungeon") {
		t.Fatalf("list microban: %v\n%s", err, out)
	}
}

func TestSolveJSONAndVerify(t *testing.T) {
	out, errOut, err := soko(t, "", "solve", "--json", "-j", "2", "microban:1-3", "--algo", "astar")
	if err != nil {
		t.Fatal(err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(finalRecords(out)), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 JSON lines, got:\n%s", out)
	}
	for i, line := range lines {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Level != "microban:"+string(rune('1'+i)) || r.Status != "solved" || r.Solution == "" {
			t.Fatalf("record %d out of order or unsolved: %s", i, line)
		}
		v, _, err := soko(t, "", "verify", r.Level, r.Solution)
		if err != nil || !strings.Contains(v, "solved in") {
			t.Fatalf("verify %s: %v %s", r.Level, err, v)
		}
	}
	if !strings.Contains(errOut, "solved 3 of 3 levels") {
		t.Fatalf("summary missing from stderr: %q", errOut)
	}
}

func TestSolveText(t *testing.T) {
	out, _, err := soko(t, "", "solve", "--algo", "bfs", "microban:2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "microban:2") || !strings.Contains(out, "solved") || !strings.Contains(out, "pushes    3") ||
		!strings.Contains(out, "solved 1 of 1 level with bfs") {
		t.Fatalf("unexpected output:\n%s", out)
	}
}

func TestSolveFromStdin(t *testing.T) {
	out, _, err := soko(t, "#######\n#@ $ .#\n#######\n", "solve", "--json", "-")
	if err != nil || !strings.Contains(out, `"solution":"rRR"`) {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestVerifyReportsIllegalStep(t *testing.T) {
	out, _, err := soko(t, "", "verify", "microban:1", "uuuu")
	if !errors.Is(err, errSilent) || !strings.Contains(out, "not solved") {
		t.Fatalf("%v\n%s", err, out)
	}
	out, _, err = soko(t, "dlUrrrdLullddrUluRuulDrddrruLdlUU", "verify", "microban:1", "-")
	if err != nil || !strings.Contains(out, "solved in 33 moves, 8 pushes") {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xsb")
	if err := os.WriteFile(bad, []byte("; 1\n#####\n#@@.#\n# $ #\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The level's error is its result line; the exit status is 1.
	out, _, err := soko(t, "", "solve", bad)
	if !errors.Is(err, errSilent) || !strings.Contains(out, "error: "+bad+":3:3: level 1: two players") {
		t.Fatalf("two players: %v\n%s", err, out)
	}
	var u usageError
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"solve"},
		{"solve", "--algo", "nope", "microban:1"},
		{"solve", "-j", "0", "microban:1"},
		{"solve", "--memory", "lots", "microban:1"},
		{"verify", "microban:1"},
		{"solve", "--w", "2", "microban:1"},
		{"solve", "--param", "novalue", "microban:1"},
	} {
		if _, _, err := soko(t, "", args...); !errors.As(err, &u) {
			t.Errorf("%q: want a usage error, got %v", args, err)
		}
	}
	if _, _, err := soko(t, "", "solve", "microban:999"); err == nil || !strings.Contains(err.Error(), "155") {
		t.Errorf("out of range: %v", err)
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "4GiB": 4 << 30, "2G": 2 << 30, "1000": 1000, "1.5KiB": 1536, "3MB": 3e6} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1G", "12abc"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}

func TestAnalyze(t *testing.T) {
	out, _, err := soko(t, "", "analyze", "microban:5")
	if err != nil || !strings.Contains(out, "search space (000 A.0.0.1)") || !strings.Contains(out, "x dead square") {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, _, err := soko(t, "", "analyze"); err == nil {
		t.Fatal("analyze without levels must be a usage error")
	}
	for _, cmd := range []string{"solve", "bench", "report"} {
		if out, _, err := soko(t, "", "help", cmd); err != nil || !strings.Contains(out, "usage: soko "+cmd) {
			t.Errorf("help %s: %v\n%s", cmd, err, out)
		}
	}
}

func TestSolveMCTSReportsTreeStatistics(t *testing.T) {
	out, _, err := soko(t, "", "solve", "-v", "--algo", "schokoban", "--iterations", "5000", "--no-solution", "microban:2")
	if err != nil || !strings.Contains(out, "iterations ") || !strings.Contains(out, "per tree node") {
		t.Fatalf("%v\n%s", err, out)
	}
}
