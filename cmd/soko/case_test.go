package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/level"
	"soko/levels"
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

// soko optimize follows verify's rule on letter case, for LEVEL SOLUTION,
// --from records and FILE.sok alike: a solution with a step in the wrong
// case is an error naming the step (exit status 1, and not written to
// --out, so that a run with --lenient-case does it), unless --lenient-case,
// which optimizes it as read by what each step does and says so on stderr.
func TestOptimizeLetterCase(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, lurd string
		lenient    bool
		out        string // in stdout
		errOut     string // in stderr
	}{
		{"right case", microban1Real, false, "pushes    8 →    8", ""},
		{"lower case", microban1Lower, false, "error: solution refused: step 3 (u) pushes a box but is written in lower case (a push is written in upper case, a move in lower case; --lenient-case reads each step by what it does)", ""},
		{"upper case", microban1Upper, false, "error: solution refused: step 1 (D) pushes nothing but is written in upper case", ""},
		{"lower case, lenient", microban1Lower, true, "pushes    8 →    8  moves    33 →    33",
			"soko: optimize: microban:1: --lenient-case: the letter case of 8 steps normalised; the first: step 3 (u) pushes a box but is written in lower case\n"},
		{"upper case, lenient", microban1Upper, true, microban1Real, "the letter case of 25 steps normalised"},
	} {
		results := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".jsonl")
		args := []string{"optimize", "--time", "5s", "--out", results, "microban:1", tc.lurd}
		if tc.lenient {
			args = append(args, "--lenient-case")
		}
		refused := strings.Contains(tc.out, "refused")
		out, errOut, err := soko(t, "", args...)
		if (err == nil) == refused || refused && !errors.Is(err, errSilent) || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errOut) ||
			tc.errOut == "" && strings.Contains(errOut, "lenient") {
			t.Errorf("%s: %v\nstdout %q\nstderr %q", tc.name, err, out, errOut)
		}
		if !refused {
			continue
		}
		// Not written to --out: the same command with --lenient-case does it.
		if st, err := os.Stat(results); err == nil && st.Size() > 0 {
			t.Errorf("%s: a refused solution was written to --out:\n%s", tc.name, readText(t, results))
		}
		out, _, err = soko(t, "", append(args, "--lenient-case")...)
		if err != nil || !strings.Contains(out, "pushes    8 →    8") {
			t.Errorf("%s: again with --lenient-case: %v\n%s", tc.name, err, out)
		}
	}

	// FILE.sok: its shortest solution, in lower case, is refused; with
	// --lenient-case it is optimized and the result put in the file
	// written as it should be.
	board, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	sok := filepath.Join(dir, "m.sok")
	if err := os.WriteFile(sok, []byte(board+"\nSolution\n"+microban1Lower+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "optimize", sok)
	if !errors.Is(err, errSilent) || !strings.Contains(out, "step 3 (u) pushes a box but is written in lower case") || strings.Contains(readText(t, sok), microban1Real) {
		t.Errorf("optimize FILE.sok with a solution in lower case: %v\n%s", err, out)
	}
	_, errOut, err := soko(t, "", "optimize", "--lenient-case", sok)
	if err != nil || !strings.Contains(errOut, "--lenient-case: the letter case of 8 steps normalised") || !strings.Contains(readText(t, sok), "\n"+microban1Real+"\n") {
		t.Errorf("optimize --lenient-case FILE.sok with a solution in lower case: %v\n%s\n%s", err, errOut, readText(t, sok))
	}

	// A level with one solution in lower case and one as good written
	// right: optimize takes the one written right, without refusing.
	both := filepath.Join(dir, "both.sok")
	if err := os.WriteFile(both, []byte(board+"\nSolution\n"+microban1Lower+"\n\nSolution\n"+microban1Real+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, err := soko(t, "", "optimize", both); err != nil || strings.Contains(out, "refused") {
		t.Errorf("optimize FILE.sok with a solution in lower case and one written right: %v\n%s", err, out)
	}
}

// checkCase, which soko optimize and play --replay hold a solution to
// before they use it, is verify's rule: a step in the wrong letter case is
// an error naming it, unless lenient, which gives the note to say.
func TestCheckCase(t *testing.T) {
	lvls, err := levels.ResolveAll(context.Background(), []string{"microban:1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lurd       string
		lenient    bool
		note, fail string
	}{
		{microban1Real, false, "", ""},
		{microban1Real, true, "", ""},
		{microban1Lower, false, "", "step 3 (u) pushes a box but is written in lower case (a push is written in upper case, a move in lower case; --lenient-case reads each step by what it does)"},
		{microban1Upper, false, "", "step 1 (D) pushes nothing but is written in upper case"},
		{microban1Lower[:5], false, "", "step 3 (u) pushes a box but is written in lower case"}, // a replay need not solve
		{microban1Lower, true, "--lenient-case: the letter case of 8 steps normalised; the first: step 3 (u) pushes a box but is written in lower case", ""},
		{"dlUUUU", false, "", ""}, // what is after an illegal step is not read
	} {
		ms, err := level.ParseLURD(tc.lurd)
		if err != nil {
			t.Fatal(err)
		}
		note, err := checkCase(lvls[0], ms, tc.lenient)
		if note != tc.note || (err == nil) != (tc.fail == "") || err != nil && !strings.HasPrefix(err.Error(), tc.fail) {
			t.Errorf("checkCase(%s, lenient %v) = %q, %v; want %q, %q", tc.lurd, tc.lenient, note, err, tc.note, tc.fail)
		}
	}
}

// soko verify FILE.sok replays snapshots too: one that resumes is
// reported with its moves, one that does not names its line and fails the
// run, and a file of snapshots alone is not "no solutions".
func TestVerifySokSnapshots(t *testing.T) {
	board, _, err := soko(t, "", "show", "microban:1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.sok"), filepath.Join(dir, "bad.sok")
	if err := os.WriteFile(good, []byte(board+"\nSnapshot\ndlU\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "verify", good)
	if err != nil || !strings.Contains(out, "snapshot at line 10: a game in progress, resumes after 3 moves") ||
		!strings.Contains(out, "no solutions; 1 of 1 snapshot resume on their levels") {
		t.Errorf("verify, a snapshot that resumes: %v\n%s", err, out)
	}
	text := board + "\nSolution\n" + microban1Real + "\n\nSnapshot\nuuuuuuuu\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = soko(t, "", "verify", bad)
	if !errors.Is(err, errSilent) || !strings.Contains(out, bad+":13: level 1: snapshot: does not replay on its level: step 3 (u): walks into a wall") ||
		!strings.Contains(out, "1 of 1 solution solve their levels") || !strings.Contains(out, "0 of 1 snapshot resume") {
		t.Errorf("verify, a snapshot that does not replay: %v\n%s", err, out)
	}
	// A snapshot whose moves cannot be read is a snapshot that fails, not
	// a solution.
	unread := filepath.Join(dir, "unread.sok")
	if err := os.WriteFile(unread, []byte(board+"\nSnapshot\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = soko(t, "", "verify", unread)
	if !errors.Is(err, errSilent) || !strings.Contains(out, "a snapshot cannot be read") || !strings.Contains(out, "no solutions; 0 of 1 snapshot resume") || strings.Contains(out, "solution cannot be read") {
		t.Errorf("verify, a snapshot that cannot be read: %v\n%s", err, out)
	}
}
