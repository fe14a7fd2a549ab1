package search

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
)

func run(t testing.TB, s solver.Solver, l *level.Level, b solver.Budget) solver.Result {
	t.Helper()
	res, err := solver.Run(context.Background(), s, l, solver.Options{Budget: b})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Known optimal push counts, established by BFS (which is push-optimal by
// construction) and asserted for both solvers.
var knownPushes = map[string]int{
	"microban:1": 8,
	"microban:2": 3,
	"microban:3": 13,
	"microban:4": 7,
	"microban:5": 6,
}

func TestBFSAndAStarAgreeOnPushes(t *testing.T) {
	// 96, 122, 138 and 143 are levels where A* once returned two pushes too
	// many, before it reopened states reached again by a shorter path; 11
	// and 117 are where a tunnel macro without the split condition did.
	for _, l := range testlevel.Resolve(t, "microban:1-12,96,117,122,138,143") {
		b := run(t, BFS{}, l, solver.Budget{Time: time.Minute})
		a := run(t, AStar{}, l, solver.Budget{Time: time.Minute})
		if b.Status != solver.Solved || a.Status != solver.Solved {
			t.Fatalf("%s: bfs %v, astar %v; both should solve it", l.Name(), b.Status, a.Status)
		}
		if a.Pushes != b.Pushes {
			t.Errorf("%s: astar %d pushes, bfs %d", l.Name(), a.Pushes, b.Pushes)
		}
		id := "microban:" + strconv.Itoa(l.Index)
		if want, ok := knownPushes[id]; ok && a.Pushes != want {
			t.Errorf("%s: %d pushes, known optimum %d", id, a.Pushes, want)
		}
	}
}

// Small levels whose push-state space is exhausted without a solution.
var unsolvable = []string{
	// The box is in a corner off the goal.
	"#####\n#$ .#\n#@  #\n#####\n",
	// Two boxes frozen side by side against a wall.
	"######\n#$$  #\n#   .#\n#@  .#\n######\n",
	// The player can never get behind the box to push it towards the goal.
	"#######\n#@ $  #\n## ####\n#.    #\n#######\n",
	// Searchable but hopeless: the goal sits behind the box's only way.
	"#######\n#  @  #\n# $#. #\n#  #  #\n#######\n",
}

func TestNoSolutionIsNotATimeout(t *testing.T) {
	for _, text := range unsolvable {
		l := testlevel.Parse(t, text)
		for name, s := range map[string]solver.Solver{"bfs": BFS{}, "astar": AStar{}} {
			res := run(t, s, l, solver.Budget{Time: 10 * time.Second})
			if res.Status != solver.NoSolution {
				t.Errorf("%s on\n%s: status %v, want no solution", name, text, res.Status)
			}
		}
	}
}

func TestBudgets(t *testing.T) {
	hard := testlevel.Resolve(t, "xsokoban90:24")[0]
	for name, s := range map[string]solver.Solver{"bfs": BFS{}, "astar": AStar{}} {
		t.Run(name, func(t *testing.T) {
			res := run(t, s, hard, solver.Budget{Nodes: 500})
			if res.Status != solver.NodeLimit || res.Stats.Expanded > 500 {
				t.Errorf("node limit: status %v after %d expansions", res.Status, res.Stats.Expanded)
			}
			res = run(t, s, hard, solver.Budget{Memory: 1 << 20})
			if res.Status != solver.MemoryLimit {
				t.Errorf("memory limit: status %v", res.Status)
			}
			start := time.Now()
			res = run(t, s, hard, solver.Budget{Time: 200 * time.Millisecond})
			if res.Status != solver.TimeLimit {
				t.Errorf("time limit: status %v", res.Status)
			}
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("a 200ms limit returned after %v", el)
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			r, err := solver.Run(ctx, s, hard, solver.Options{})
			if err != nil || r.Status != solver.Cancelled {
				t.Errorf("cancel: status %v, err %v", r.Status, err)
			}
		})
	}
}

func TestProgressEvents(t *testing.T) {
	hard := testlevel.Resolve(t, "xsokoban90:24")[0]
	for name, s := range map[string]solver.Solver{"astar": AStar{}, "bfs": BFS{}, "idastar": IDAStar{}, "wastar": WAStar{}} {
		var events int
		var last solver.Stats
		var board []string
		opts := solver.Options{
			Budget:   solver.Budget{Time: 500 * time.Millisecond},
			Progress: func(p solver.Progress) { events++; last, board = p.Stats, p.Board },
		}
		if _, err := solver.Run(context.Background(), s, hard, opts); err != nil {
			t.Fatal(err)
		}
		if events < 2 || last.Expanded == 0 || last.Elapsed == 0 {
			t.Errorf("%s: %d progress events, last %+v", name, events, last)
		}
		if text := strings.Join(board, ""); len(board) != hard.Height || strings.Count(text, "$")+strings.Count(text, "*") == 0 {
			t.Errorf("%s: progress board:\n%s", name, strings.Join(board, "\n"))
		}
	}
}

// BenchmarkAStar solves Microban levels and reports expansions per second
// and the bytes every stored state costs (store, per-state fields, open list).
func BenchmarkAStar(b *testing.B) {
	ls := testlevel.Resolve(b, "microban:1-60")
	var expanded, stored, bytes int64
	for b.Loop() {
		expanded, stored, bytes = 0, 0, 0
		for _, l := range ls {
			res := run(b, AStar{}, l, solver.Budget{Nodes: 200000})
			expanded += res.Stats.Expanded
			stored += res.Stats.Stored
			bytes += res.Stats.Bytes
		}
	}
	b.ReportMetric(float64(expanded)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(bytes)/float64(stored), "bytes/state")
}

// TestAStarMicrobanRegression is the solved-count regression check that CI
// runs: node budgets instead of time keep it independent of machine speed
// (searches are deterministic). At 400,000 expansions per level A* solved
// 151 of Microban's 155 when this test was written.
func TestAStarMicrobanRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("solves all of Microban")
	}
	const want = 151
	solved := 0
	for _, l := range testlevel.Resolve(t, "microban") {
		res := run(t, AStar{}, l, solver.Budget{Nodes: 400000})
		if res.Status == solver.Solved {
			solved++
		}
	}
	t.Logf("astar solved %d of 155", solved)
	if solved < want {
		t.Fatalf("astar solved %d of Microban's 155 at 400k expansions per level; it solved %d before", solved, want)
	}
}

// TestAStarGroupsAgreeWithBFS solves levels with the group bound set up
// from the first expansion, and finds BFS's push counts: on Microban 23
// and 90 the bound is used (at their starts it gives 10 and 16 pushes, the
// optimum, where the matching gives 6 and 10).
func TestAStarGroupsAgreeWithBFS(t *testing.T) {
	defer func(n int64) { groupsAfter = n }(groupsAfter)
	groupsAfter = 1
	levels := testlevel.Resolve(t, "microban:1-12,23,90,96,117,122,138,143")
	used := 0
	for _, l := range levels {
		want := run(t, BFS{}, l, solver.Budget{Time: time.Minute})
		res, err := solver.Run(context.Background(), AStar{}, l, solver.Options{Budget: solver.Budget{Time: time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solver.Solved || res.Pushes != want.Pushes {
			t.Errorf("%s: %v in %d pushes, want %d", l.Name(), res.Status, res.Pushes, want.Pushes)
		}
		if res.Stats.Counts["groups.hits"]+res.Stats.Counts["groups.misses"] > 0 {
			used++
		}
	}
	if used < 2 {
		t.Fatalf("the group bound was used on %d levels", used)
	}
}
