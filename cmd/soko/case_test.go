package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// microban1 is Microban 1's solution as it should be written, and in all
// lower case and all upper case.
const (
	microban1Real  = "dlUrrrdLullddrUluRuulDrddrruLdlUU"
	microban1Lower = "dlurrrdlullddruluruuldrddrruldluu"
	microban1Upper = "DLURRRDLULLDDRULURUULDRDDRRULDLUU"
)

// soko verify checks letter case: a push in lower case or a move in upper
// case is refused with its step and letter, unless --lenient-case, which
// says it normalised and prints the solution as it should be written.
func TestVerifyLetterCase(t *testing.T) {
	for _, tc := range []struct {
		name, lurd string
		lenient    bool
		ok         bool
		out        string // in stdout
		errOut     string // in stderr
	}{
		{"right case", microban1Real, false, true, "microban:1: solved in 33 moves, 8 pushes\n", ""},
		{"lower case", microban1Lower, false, false, "microban:1: refused: step 3 (u) pushes a box but is written in lower case", ""},
		{"upper case", microban1Upper, false, false, "microban:1: refused: step 1 (D) pushes nothing but is written in upper case", ""},
		{"one push in lower case", strings.Replace(microban1Real, "L", "l", 1), false, false, "refused: step 8 (l) pushes a box but is written in lower case", ""},
		{"lower case, lenient", microban1Lower, true, true,
			"microban:1: solved in 33 moves, 8 pushes (--lenient-case: the letter case of 8 steps normalised; the first: step 3 (u) pushes a box but is written in lower case)",
			"the solution as it should be written:\n" + microban1Real + "\n"},
		{"upper case, lenient", microban1Upper, true, true, "the letter case of 25 steps normalised", microban1Real},
		{"lenient does not make a solution", microban1Lower[:20], true, false, "not solved: after all 20 moves (4 pushes)", ""},
	} {
		args := []string{"verify", "microban:1", tc.lurd}
		if tc.lenient {
			args = append(args, "--lenient-case")
		}
		out, errOut, err := soko(t, "", args...)
		if (err == nil) != tc.ok || !tc.ok && !errors.Is(err, errSilent) || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errOut) {
			t.Errorf("%s: %v\nstdout %q\nstderr %q", tc.name, err, out, errOut)
		}
	}
}

// A .sok file that holds a solution in lower case: its heading counts the
// pushes by replay, soko verify FILE.sok refuses it, and soko solve --out
// puts a real solution in its place instead of keeping it as "better".
func TestSokLetterCase(t *testing.T) {
	board, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.sok")
	if err := os.WriteFile(path, []byte(board+"\nSolution (0 pushes, 33 moves)\n"+microban1Lower+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "verify", path)
	if !errors.Is(err, errSilent) || !strings.Contains(out, path+":1: solution at line 10: refused: step 3 (u) pushes a box but is written in lower case") ||
		!strings.Contains(out, "0 of 1 solution solve") {
		t.Errorf("verify FILE.sok: %v\n%s", err, out)
	}
	if out, _, err := soko(t, "", "verify", "--lenient-case", path); err != nil || !strings.Contains(out, "solved in 33 moves, 8 pushes (--lenient-case") {
		t.Errorf("verify --lenient-case FILE.sok: %v\n%s", err, out)
	}

	_, errOut, err := soko(t, "", "solve", "--algo", "astar", "--out", path, "microban:1")
	if err != nil || !strings.Contains(errOut, "1 solution new or better") {
		t.Fatalf("solve --out: %v\n%s", err, errOut)
	}
	text := readText(t, path)
	if strings.Contains(text, microban1Lower) || strings.Count(text, "\nSolution (") != 1 || !strings.Contains(text, "\nSolution (8 pushes, ") {
		t.Errorf("the lower-case solution was kept over the real one:\n%s", text)
	}
	if out, _, err := soko(t, "", "verify", path); err != nil {
		t.Errorf("verify after solve: %v\n%s", err, out)
	}
}

// soko verify FILE.sok reports a solution section whose moves cannot be
// read as a failure naming the file, level and line, not a skip.
func TestVerifySokUnreadableSection(t *testing.T) {
	board, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.sok")
	text := board + "\nSolution\n" + microban1Real + "\n\nSolution\ndlUrrrdLu!lddrUluRuulDrddrruLdlUU\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "verify", path)
	if !errors.Is(err, errSilent) || !strings.Contains(out, path+":1: a solution cannot be read: "+path+":14:10: level 1: solution section: unexpected character '!' in LURD") ||
		!strings.Contains(out, "1 of 2 solutions solve their levels") {
		t.Errorf("verify: %v\n%s", err, out)
	}
}
