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

// TestBenchThreadsReachSolvers: soko bench --threads reaches the solver
// through solver.Options: both of the portfolio's strategies start at once
// (with one thread greedy would not start where astar solves the level),
// and the records say how many threads the runs had and which strategy
// solved each level.
func TestBenchThreadsReachSolvers(t *testing.T) {
	out, errOut, err := soko(t, "", "bench", "--algo", "portfolio", "--threads", "2", "-j", "1", "microban:1-2")
	if err != nil {
		t.Fatal(err, errOut)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var r struct {
			Level    string `json:"level"`
			Status   string `json:"status"`
			Strategy string `json:"strategy"`
			Threads  int    `json:"threads"`
			Counts   map[string]int64
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status != "solved" || r.Strategy == "" || r.Threads != 2 {
			t.Errorf("%s: %s by %q with %d threads; want solved, a strategy, 2 threads", r.Level, r.Status, r.Strategy, r.Threads)
		}
		for _, member := range []string{"astar", "greedy"} {
			if _, ran := r.Counts[member+".expanded"]; !ran {
				t.Errorf("%s: %s did not start (counts %v)", r.Level, member, r.Counts)
			}
		}
	}
}
