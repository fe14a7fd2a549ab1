package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestThreadsFlag: --threads takes a whole number of at least 1 on solve
// and bench, and anything else is a usage error (exit status 2) naming the
// flag and the value.
func TestThreadsFlag(t *testing.T) {
	for _, cmd := range []string{"solve", "bench"} {
		for _, v := range []string{"0", "-1", "abc", "1.5", ""} {
			msg := usage(t, "", cmd, "--threads", v, "microban:1")
			if want := `bad --threads "` + v + `"`; !strings.Contains(msg, want) {
				t.Errorf("%s --threads %q: %q, want %q", cmd, v, msg, want)
			}
		}
	}
}

// TestSolveThreadsPortfolio: the portfolio solver with --threads 2 solves
// levels, and the JSON says which member did.
func TestSolveThreadsPortfolio(t *testing.T) {
	out, errOut, err := soko(t, "", "solve", "--algo", "portfolio", "--threads", "2", "--json", "microban:1-3")
	if err != nil {
		t.Fatal(err, errOut)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status.String() != "solved" || (r.Strategy != "astar" && r.Strategy != "greedy") {
			t.Errorf("%s: %v by %q; want solved by astar or greedy", r.Level, r.Status, r.Strategy)
		}
	}
}
