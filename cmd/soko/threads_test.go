package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/solver"
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

// TestThreadsCapped: --threads above what -j goes to (workerCeiling) is cut
// to it, said on stderr, and the record names the threads used.
func TestThreadsCapped(t *testing.T) {
	asked := strconv.Itoa(workerCeiling() + 1)
	out, errOut, err := soko(t, "", "solve", "--json", "--optimize", "off", "--threads", asked, "microban:1")
	var r record
	if err != nil || json.Unmarshal([]byte(finalRecords(out)), &r) != nil || r.Threads != workerCeiling() ||
		!strings.Contains(errOut, "solve: --threads "+asked+": using "+strconv.Itoa(workerCeiling())) {
		t.Errorf("solve --threads %s: %v, %d threads in the record; stderr %q", asked, err, r.Threads, errOut)
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
		if r.Status != "solved" || (r.Strategy != "astar" && r.Strategy != "greedy") {
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

// TestSolveDefaultThreads: without --threads, a level fess solves alone
// under a time limit gets the CPU slots as threads (the record and the
// summary say 2), two levels on two slots get one each, a node limit
// keeps one thread so that the seed repeats the run, and the portfolio
// solver keeps one, so that astar goes first (greedy never starts where
// astar solves the level).
func TestSolveDefaultThreads(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		threads int
	}{
		{[]string{"-j", "2", "microban:1"}, 2},
		{[]string{"-j", "2", "microban:1-2"}, 0},
		{[]string{"-j", "2", "--nodes", "100000", "microban:1"}, 0},
		{[]string{"-j", "2", "--threads", "1", "microban:1"}, 0},
		{[]string{"-j", "2", "--algo", "portfolio", "microban:1"}, 0},
	} {
		out, errOut, err := soko(t, "", append([]string{"solve", "--json", "--optimize", "off"}, tc.args...)...)
		if err != nil {
			t.Fatal(err, errOut)
		}
		if said := strings.Contains(errOut, ", 2 threads)"); said != (tc.threads == 2) {
			t.Errorf("%v: the summary %q says 2 threads: %v, want %v", tc.args, errOut, said, tc.threads == 2)
		}
		for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
			var r record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			_, greedy := r.Counts["greedy.expanded"]
			if r.Status != "solved" || r.Threads != tc.threads || r.Algo == "portfolio" && greedy {
				t.Errorf("%v: %s %v with threads %d (greedy started: %v); want solved with %d", tc.args, r.Level, r.Status, r.Threads, greedy, tc.threads)
			}
		}
	}
}

// TestSolveDefaultThreadsCappedJ: a -j beyond what soko uses (workerCeiling)
// counts as the ceiling when the default threads are worked out, so -j
// 100000 does not give every level eight threads on a small machine.
func TestSolveDefaultThreadsCappedJ(t *testing.T) {
	out, errOut, err := soko(t, "", "solve", "--json", "--optimize", "off", "-j", "100000", "microban:1-10")
	if err != nil {
		t.Fatal(err, errOut)
	}
	want := autoThreads(workerCeiling(), 10, solver.Budget{Time: time.Second})
	if want == 1 {
		want = 0 // one thread is not named
	}
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Threads != want {
			t.Errorf("%s: %d threads; want %d", r.Level, r.Threads, want)
		}
	}
}

// TestSolveThreadsOneThreadSolver: a solver that does not run members
// side by side gets one thread by default, and its record and summary
// name none even when --threads asks for more.
func TestSolveThreadsOneThreadSolver(t *testing.T) {
	for _, args := range [][]string{{"-j", "2"}, {"--threads", "2"}} {
		out, errOut, err := soko(t, "", append([]string{"solve", "--algo", "greedy", "--json", "--optimize", "off", "microban:1"}, args...)...)
		if err != nil {
			t.Fatal(err, errOut)
		}
		var r record
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status != "solved" || r.Threads != 0 || strings.Contains(errOut, "threads") {
			t.Errorf("%v: %v with threads %d, summary %q; want solved, no threads named", args, r.Status, r.Threads, errOut)
		}
	}
}

// TestAutoThreads: soko solve's default threads are the slots the levels
// leave idle, at most maxAutoThreads, under a time limit alone.
func TestAutoThreads(t *testing.T) {
	timed := solver.Budget{Time: time.Second}
	for _, tc := range []struct {
		slots, levels int
		b             solver.Budget
		want          int
	}{
		{2, 1, timed, 2},
		{16, 1, timed, maxAutoThreads},
		{8, 3, timed, 2},
		{2, 155, timed, 1},
		{2, 0, timed, 2},
		{2, 1, solver.Budget{}, 1},
		{2, 1, solver.Budget{Time: time.Second, Nodes: 10}, 1},
		{2, 1, solver.Budget{Time: time.Second, Iterations: 10}, 1},
	} {
		if got := autoThreads(tc.slots, tc.levels, tc.b); got != tc.want {
			t.Errorf("autoThreads(%d, %d, %+v) = %d, want %d", tc.slots, tc.levels, tc.b, got, tc.want)
		}
	}
}
