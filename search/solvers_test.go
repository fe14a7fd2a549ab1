package search

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// every solver in this package, by registered name.
func allSolvers(t *testing.T) map[string]solver.Solver {
	t.Helper()
	m := map[string]solver.Solver{}
	for _, name := range []string{"bfs", "astar", "wastar-push", "greedy", "bigreedy", "fama", "idastar", "dfs", "bfs-moves", "wastar"} {
		e, ok := solver.Lookup(name)
		if !ok {
			t.Fatalf("solver %s is not registered", name)
		}
		m[name] = e.New()
	}
	return m
}

func TestEverySolverSolvesSmallLevels(t *testing.T) {
	for name, s := range allSolvers(t) {
		for _, l := range testlevel.Resolve(t, "microban:1-10") {
			if res := run(t, s, l, solver.Budget{Time: 30 * time.Second}); res.Status != solver.Solved {
				t.Errorf("%s on %s: %v", name, l.Name(), res.Status)
			}
		}
		for _, text := range unsolvable {
			if res := run(t, s, testlevel.Parse(t, text), solver.Budget{Time: 10 * time.Second}); res.Status != solver.NoSolution {
				t.Errorf("%s on\n%s: %v, want no solution", name, text, res.Status)
			}
		}
	}
}

func TestIDAStarMatchesAStar(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-40,96,138") {
		a := run(t, AStar{}, l, solver.Budget{Time: time.Minute})
		i := run(t, IDAStar{}, l, solver.Budget{Time: time.Minute})
		if a.Status != solver.Solved || i.Status != solver.Solved {
			t.Fatalf("%s: astar %v, idastar %v", l.Name(), a.Status, i.Status)
		}
		if a.Pushes != i.Pushes {
			t.Errorf("%s: idastar %d pushes, astar %d", l.Name(), i.Pushes, a.Pushes)
		}
	}
}

func TestBFSMovesIsMoveOptimal(t *testing.T) {
	solvers := allSolvers(t)
	for _, l := range testlevel.Resolve(t, "microban:1-8") {
		best := run(t, BFSMoves{}, l, solver.Budget{Time: time.Minute})
		if best.Status != solver.Solved {
			t.Fatalf("%s: %v", l.Name(), best.Status)
		}
		for name, s := range solvers {
			if r := run(t, s, l, solver.Budget{Time: time.Minute}); len(r.Moves) < len(best.Moves) {
				t.Errorf("%s: %s found %d moves, fewer than bfs-moves' %d", l.Name(), name, len(r.Moves), len(best.Moves))
			}
		}
	}
	if r := run(t, BFSMoves{}, testlevel.Parse(t, "#######\n#@ $ .#\n#######\n"), solver.Budget{}); len(r.Moves) != 3 {
		t.Errorf("corridor: %d moves, want 3", len(r.Moves))
	}
}

func TestDFSDepthLimit(t *testing.T) {
	l := testlevel.Resolve(t, "microban:1")[0] // 8 pushes at best
	opts := func(depth string) solver.Options {
		return solver.Options{Params: map[string]string{"depth": depth}}
	}
	res, err := solver.Run(t.Context(), DFS{}, l, opts("7"))
	if err != nil || res.Status != solver.DepthLimit {
		t.Fatalf("depth 7: %v, %v; want depth limit", res.Status, err)
	}
	res, err = solver.Run(t.Context(), DFS{}, l, opts("8"))
	if err != nil || res.Status != solver.Solved || res.Pushes > 8 {
		t.Fatalf("depth 8: %v with %d pushes, %v", res.Status, res.Pushes, err)
	}
	if _, err := solver.Run(t.Context(), DFS{}, l, opts("deep")); err == nil {
		t.Fatal("a non-numeric depth must be an error")
	}
}

func TestFAMAHeuristic(t *testing.T) {
	// Box A on a goal with walls up and left and a box to its right:
	// −20·(1+3). Box $ off goal: nearest empty goal 3 squares away.
	l := testlevel.Grid(
		"########",
		"#*$    #",
		"#     .#",
		"#@     #",
		"########",
	)
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	score, _ := famaScore(&pushGraph{board: b})
	got, _, _ := score.score(b.Start(), 5)
	want := -20*(1+3) + (4 + 1) + 5 + 100*2
	if got != want {
		t.Fatalf("FAMA score %d, want %d", got, want)
	}
}

func TestPruneAisles(t *testing.T) {
	l := testlevel.Grid(
		"#########",
		"#@ $ .  #",
		"### #####",
		"  # #",
		"  ###",
	)
	got := strings.Join(pruneAisles(l).Rows, "\n")
	want := strings.Join([]string{
		"#########",
		"#@ $ .###",
		"#########",
		"  ###    ",
		"  ###    ",
	}, "\n")
	if got != want {
		t.Fatalf("pruned:\n%s\nwant:\n%s", got, want)
	}
}

// The goal-room macro on XSokoban 1, whose goals fill a room behind a
// corridor, and on 17, where greedy search wanders among half-filled rooms
// without it: the macro's solutions replay (solver.Run verifies them) and
// take fewer expansions.
func TestGoalRoomMacro(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "xsokoban90:1,17") {
		var expanded [2]int64
		for rooms := range 2 {
			opts := solver.Options{Budget: solver.Budget{Nodes: 200000}, Params: map[string]string{"rooms": strconv.Itoa(rooms)}}
			res, err := solver.Run(context.Background(), Greedy{}, l, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != solver.Solved {
				t.Fatalf("%s rooms=%d: %v", l.Name(), rooms, res.Status)
			}
			expanded[rooms] = res.Stats.Expanded
		}
		if expanded[1] >= expanded[0] {
			t.Errorf("%s: %d expansions with the goal-room macro, %d without", l.Name(), expanded[1], expanded[0])
		}
	}
}

// TestSharedSuccessorsKeepGuarantees runs bfs, idastar and dfs with the
// best-first searches' successor pruning (PI-corrals, and for idastar and
// dfs the tunnel macro) on and off: the push-optimal ones must find the same
// push counts either way, dfs limited to the optimal count must still find
// a solution, and the pruning must save expansions somewhere (or it is not
// on at all).
func TestSharedSuccessorsKeepGuarantees(t *testing.T) {
	off := map[string]string{"picorral": "0", "tunnels": "0"}
	on := map[string]string{"picorral": "1", "tunnels": "1"}
	solve := func(s solver.Solver, l *level.Level, params map[string]string) solver.Result {
		t.Helper()
		res, err := solver.Run(context.Background(), s, l, solver.Options{Budget: solver.Budget{Time: time.Minute}, Params: params})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solver.Solved {
			t.Fatalf("%s with %v: %v", l.Name(), params, res.Status)
		}
		return res
	}
	saved := map[string]int64{}
	for _, l := range testlevel.Resolve(t, "microban:1-16,96,117") {
		bfsOff := solve(BFS{}, l, map[string]string{"picorral": "0"})
		bfsOn := solve(BFS{}, l, map[string]string{"picorral": "1"})
		idaOff, idaOn := solve(IDAStar{}, l, off), solve(IDAStar{}, l, on)
		opt := bfsOff.Pushes
		if bfsOn.Pushes != opt || idaOff.Pushes != opt || idaOn.Pushes != opt {
			t.Errorf("%s: bfs %d pushes, bfs with PI-corrals %d, idastar %d, idastar with pruning %d",
				l.Name(), opt, bfsOn.Pushes, idaOff.Pushes, idaOn.Pushes)
		}
		depth := map[string]string{"depth": strconv.Itoa(opt)}
		for k, v := range on {
			depth[k] = v
		}
		if res := solve(DFS{}, l, depth); res.Pushes > opt {
			t.Errorf("%s: dfs limited to %d pushes found %d", l.Name(), opt, res.Pushes)
		}
		saved["bfs"] += bfsOff.Stats.Expanded - bfsOn.Stats.Expanded
		saved["idastar"] += idaOff.Stats.Expanded - idaOn.Stats.Expanded
	}
	for name, n := range saved {
		if n <= 0 {
			t.Errorf("%s: pruning saved %d expansions in all", name, n)
		}
	}
	t.Logf("expansions saved: %v", saved)
}

// wastar with restarts takes the solution it meets at its restart's
// expansion: with restart=1 a one-push level is solved in its first search,
// where the restart threw it away.
func TestWAStarRestartKeepsSolution(t *testing.T) {
	e, _ := solver.Lookup("wastar")
	l := testlevel.Parse(t, "#####\n#@$.#\n#####\n")
	res, err := solver.Run(context.Background(), e.New(), l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}, Params: map[string]string{"restart": "1"}})
	if err != nil || res.Status != solver.Solved {
		t.Errorf("restart=1 on a one-push level: %v, %v", res.Status, err)
	}
}
