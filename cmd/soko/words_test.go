package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDidYouMean checks that an unknown collection, solver or flag gets
// the name it most likely stands for, and that a flag is named as typed.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "microbon"}, `unknown collection "microbon" and no such file; did you mean "microban"?`},
		{[]string{"show", "Microban:1"}, `unknown collection "Microban" and no such file; did you mean "microban"?`},
		{[]string{"solve", "microban:1", "--algo", "ASTAR"}, `unknown solver "ASTAR"; did you mean "astar"?`},
		{[]string{"bench", "microban:1", "--algo", "gredy", "--dry-run"}, `unknown solver "gredy"; did you mean "greedy"?`},
		{[]string{"solve", "microban:1", "--tim", "1s"}, "unknown flag --tim; did you mean --time?"},
		{[]string{"solve", "microban:1", "-tim=1s"}, "unknown flag -tim; did you mean --time?"},
		{[]string{"solve", "microban:1", "-t", "-1"}, `bad -t "-1": want a duration`},
		{[]string{"solve", "microban:1", "--time=-1"}, `bad --time "-1": want a duration`},
		{[]string{"solve", "microban:1", "-x"}, "unknown flag -x"},
		{[]string{"solve", "microban:1", "-t"}, "-t needs a value"},
		{[]string{"bench", "microban:1", "--out"}, "--out needs a value"},
		{[]string{"solvers", "fes"}, `unknown solver "fes"; did you mean "fess"?`},
		{[]string{"generate", "--effort", "ASTAR"}, `effort: unknown solver "ASTAR"; did you mean "astar"?`},
		{[]string{"slove", "microban:1"}, `unknown command "slove"; did you mean "solve"?`},
		{[]string{"help", "anlyze"}, `no help for unknown command "anlyze"; did you mean "analyze"?`},
		{[]string{"show", "--levels", "microban:1"}, "unknown flag --levels (levels are arguments: soko show microban:1-3)"},
		{[]string{"analyze", "--collection=microban"}, "unknown flag --collection (levels are arguments"},
	} {
		_, _, err := soko(t, "", c.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("soko %s: %v (a usage error: %v), want %q", strings.Join(c.args, " "), err, errors.As(err, &u), c.want)
		}
	}
}

// TestShortFlags checks -t and -o as --time and --out, and that help
// shows them beside their long flags.
func TestShortFlags(t *testing.T) {
	out, errOut, err := soko(t, "", "solve", "microban:1", "-t", "2s", "--algo", "astar", "--json")
	if err != nil || !strings.Contains(out, `"status":"solved"`) {
		t.Fatalf("solve -t 2s: %v\n%s%s", err, out, errOut)
	}
	sok := t.TempDir() + "/out.sok"
	if _, errOut, err := soko(t, "", "solve", "microban:1", "-o", sok, "--algo", "astar"); err != nil {
		t.Fatalf("solve -o: %v\n%s", err, errOut)
	}
	if out, _, err := soko(t, "", "verify", sok); err != nil || !strings.Contains(out, "1 of 1 solution solve") {
		t.Fatalf("solve -o wrote no solution: %v\n%s", err, out)
	}
	help, _, _ := soko(t, "", "help", "solve")
	for _, want := range []string{"--time, -t D", "--out, -o FILE.sok"} {
		if !strings.Contains(help, want) {
			t.Errorf("help solve lacks %q", want)
		}
	}
	if help, _, _ := soko(t, "", "help", "serve"); strings.Contains(help, " -t") {
		t.Errorf("help serve shows a short flag:\n%s", help)
	}
}

// TestNoLevelsSaidOnce checks that a command given no levels says so
// once: the hint to soko help is added by the exit, not the message.
func TestNoLevelsSaidOnce(t *testing.T) {
	for _, cmd := range []string{"bench", "solve", "show", "analyze"} {
		_, _, err := soko(t, "", cmd)
		var u usageError
		if !errors.As(err, &u) || err.Error() != cmd+": no levels given" {
			t.Errorf("soko %s: %v, want the usage error %q", cmd, err, cmd+": no levels given")
		}
	}
	// Levels read as a flag's value are named as such; a solver is not.
	_, _, err := soko(t, "", "solve", "--algo", "microban:1")
	if want := "solve: no levels given (microban:1 was read as the value of --algo: give the flag its value before the levels)"; err == nil || err.Error() != want {
		t.Errorf("solve --algo microban:1: %v, want %q", err, want)
	}
	if _, _, err := soko(t, "", "solve", "--algo", "fess"); err == nil || err.Error() != "solve: no levels given" {
		t.Errorf("solve --algo fess: %v", err)
	}
}

// TestSolversList checks soko solvers: the default first and marked, the
// families in order, every registered solver once, no line over 80
// columns, and the parameters in full under a name or -v.
func TestSolversList(t *testing.T) {
	out, _, err := soko(t, "", "solvers")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "  fess (default) ") {
		t.Errorf("first line %q, want fess marked the default", lines[0])
	}
	for _, l := range lines {
		if len([]rune(l)) > listWidth {
			t.Errorf("line of %d columns: %q", len([]rune(l)), l)
		}
	}
	es, _ := orderedSolvers()
	for _, e := range es {
		if n := strings.Count("\n"+out, "\n  "+e.Name+" "); n != 1 {
			t.Errorf("%s listed %d times", e.Name, n)
		}
	}
	if a, m := strings.Index(out, "push-optimal:"), strings.Index(out, "Monte Carlo tree search:"); a < 0 || m < a {
		t.Errorf("families out of order:\n%s", out)
	}
	if strings.Contains(out, "the portfolio's strategies") {
		t.Error("the short list gives fess's parameters in full")
	}
	full, _, err := soko(t, "", "solvers", "fess")
	if err != nil || !strings.Contains(full, "the portfolio's strategies") || strings.Contains(full, "astar") && strings.Contains(full, "\n  astar ") {
		t.Errorf("soko solvers fess: %v\n%s", err, full)
	}
	verbose, _, err := soko(t, "", "solvers", "-v")
	if err != nil || !strings.Contains(verbose, "the portfolio's strategies") || !strings.Contains(verbose, "\n  astar ") {
		t.Errorf("soko solvers -v: %v", err)
	}
}

// TestBenchHelpDefault checks that soko help bench names fess the default
// solver and gives no other solver as one.
func TestBenchHelpDefault(t *testing.T) {
	help, _, _ := soko(t, "", "help", "bench")
	if !strings.Contains(help, "(default fess)") || !strings.Contains(help, "solver\nis fess, the default") || strings.Contains(help, "--algo astar,bfs") {
		t.Errorf("help bench:\n%s", help)
	}
}

// TestListOneBox checks that soko list counts one box in the singular.
func TestListOneBox(t *testing.T) {
	out, _, err := soko(t, "", "list", "cbc60:1-2")
	if err != nil || !strings.Contains(out, "   1 box\n") || !strings.Contains(out, "   2 boxes\n") {
		t.Fatalf("list: %v\n%q", err, out)
	}
}

// TestExitStatus checks the exit statuses docs/commands.md gives: 0
// success (an unsolved level is a result), 1 an error, 2 a usage error,
// among them every input file that does not exist.
func TestExitStatus(t *testing.T) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"solve", "microban:1", "--algo", "astar"}, 0},
		{[]string{"solve", "xsokoban90:50", "--algo", "bfs", "--nodes", "10", "--time", "0"}, 0}, // unsolved: a result
		{[]string{"verify", "microban:1", "dl"}, 1},
		{[]string{"nosuch"}, 2},
		{[]string{"help", "nosuch"}, 2},
		{[]string{"solve", "microban:1", "--tim", "1s"}, 2},
		{[]string{"solve", "nosuch:1"}, 2},
		{[]string{"solve", "microban:1", "--algo", "nosuch"}, 2},
		{[]string{"show", "--levels", "microban:1"}, 2},
		{[]string{"bench"}, 2},
		{[]string{"solvers", "nosuch"}, 2},
		{[]string{"verify", "microban:1", missing}, 2},
		{[]string{"verify", missing + ".sok"}, 2},
		{[]string{"bench", "merge", missing + ".jsonl"}, 2},
		{[]string{"optimize", "--from", missing + ".jsonl"}, 2},
		{[]string{"solve", "microban:1", "--algo", "alphazero", "--model", missing}, 2},
		{[]string{"bench", "microban:1", "--algo", "alphazero", "--model", missing, "--dry-run"}, 2},
		{[]string{"train-dist", "--measure", "microban:1", "--model", missing}, 2},
		{[]string{"play", "microban:1"}, 2}, // no terminal
	} {
		_, _, err := soko(t, "", c.args...)
		if got := exitCode(err, devnull); got != c.want {
			t.Errorf("soko %s: exit status %d, want %d (%v)", strings.Join(c.args, " "), got, c.want, err)
		}
	}
}

// TestHelpFlagWithValue checks that --help=1 prints the help, as --help
// does, rather than an error that points to the help twice.
func TestHelpFlagWithValue(t *testing.T) {
	out, _, err := soko(t, "", "solve", "microban:1", "--help=1")
	if err != nil || !strings.HasPrefix(out, "usage: soko solve") {
		t.Fatalf("solve --help=1: %v\n%s", err, out)
	}
}
