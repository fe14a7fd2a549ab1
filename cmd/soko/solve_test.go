package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// finalRecords is the output of soko solve --json without the records of
// the phase "found": one final record per level.
func finalRecords(out string) string {
	var b strings.Builder
	for line := range strings.SplitAfterSeq(out, "\n") {
		if !strings.Contains(line, `"phase":"found"`) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// Each level solved with the optimizer on has one "found" record, before
// its final record, with the solver's own solution and the search's time;
// with the optimizer off, none. The text output is one line per level and
// the summary; -v adds the counters.
func TestSolveFoundRecordsAndLines(t *testing.T) {
	out, _, err := soko(t, "", "solve", "--json", "-j", "2", "--algo", "greedy", "microban:1-4")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]record{}
	finals := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch r.Phase {
		case "found":
			if _, twice := found[r.Level]; twice || r.Solution == "" || r.Pushes <= 0 || r.SolveS <= 0 || r.FoundPushes != 0 || r.Optimizer != "" {
				t.Errorf("found record: %s", line)
			}
			found[r.Level] = r
		case "":
			finals++
			f, ok := found[r.Level]
			if !ok {
				t.Errorf("%s: the final record came before the found one, or without it", r.Level)
			}
			if f.Pushes != r.FoundPushes || f.Moves != r.FoundMoves || f.SolveS != r.SolveS || r.Seconds < r.SolveS || r.Pushes > f.Pushes {
				t.Errorf("%s: found %d/%d in %vs, final says found %d/%d in %vs, %d pushes, wall %vs", r.Level, f.Pushes, f.Moves, f.SolveS, r.FoundPushes, r.FoundMoves, r.SolveS, r.Pushes, r.Seconds)
			}
		default:
			t.Errorf("phase %q: %s", r.Phase, line)
		}
	}
	if finals != 4 || len(found) != 4 {
		t.Errorf("%d final records, %d found: want 4 of each\n%s", finals, len(found), out)
	}
	if out, _, err := soko(t, "", "solve", "--json", "--optimize", "off", "--algo", "greedy", "microban:1-4"); err != nil || strings.Contains(out, `"phase"`) || strings.Count(out, "\n") != 4 {
		t.Errorf("--optimize off: %v\n%s", err, out)
	}
	text, _, err := soko(t, "", "solve", "--no-solution", "--algo", "fess", "microban:1-4")
	if lines := strings.Split(strings.TrimSpace(text), "\n"); err != nil || len(lines) != 5 || strings.Contains(text, "solved by") {
		t.Errorf("text output: %v\n%s", err, text)
	}
	text, _, err = soko(t, "", "solve", "-v", "--no-solution", "--algo", "fess", "microban:1")
	if err != nil || !strings.Contains(text, "solved by fess (") || !strings.Contains(text, "; optimizer ") {
		t.Errorf("-v: %v\n%s", err, text)
	}
}

// --optimize-time takes auto, none (or 0) and durations, and a bad value
// is a usage error naming what it wants.
func TestSolveOptimizeTimeFlag(t *testing.T) {
	for _, v := range []string{"auto", "none", "0", "50ms"} {
		if out, _, err := soko(t, "", "solve", "--optimize-time", v, "--algo", "greedy", "--no-solution", "microban:3"); err != nil || !strings.Contains(out, "pushes   13") {
			t.Errorf("--optimize-time %s: %v\n%s", v, err, out)
		}
	}
	for _, v := range []string{"soon", "-1s"} {
		if msg := usage(t, "", "solve", "--optimize-time", v, "microban:3"); !strings.Contains(msg, "want auto, none (or 0) or a duration") {
			t.Errorf("--optimize-time %s: %s", v, msg)
		}
	}
}
