package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"soko/bench"
	"soko/internal/testlevel"
	"soko/solver"
)

// Entry.Iterations is true of the solvers an iteration limit ends, and
// only of them: bench refuses an iteration limit alone on the others,
// where it would never end a run.
func TestIterationCounters(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:1")[0]
	for _, e := range solver.Entries() {
		budget := solver.Budget{Iterations: 20, Time: 300 * time.Millisecond}
		if e.Iterations {
			budget.Time = time.Minute
		}
		res, err := solver.Run(context.Background(), e.New(), l, solver.Options{Budget: budget, Seed: 1})
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		switch {
		case e.Iterations && res.Status != solver.IterationLimit && res.Status != solver.Solved:
			t.Errorf("%s counts iterations, but 20 of them ended it with %v after %d", e.Name, res.Status, res.Stats.Iterations)
		case !e.Iterations && res.Stats.Iterations != 0:
			t.Errorf("%s counted %d iterations: mark it Iterations", e.Name, res.Stats.Iterations)
		}
	}
	alone, timed := []bench.Budget{{Iterations: 100}}, []bench.Budget{{Iterations: 100, Time: time.Second}}
	fess, mcts := []bench.SolverSpec{{Name: "fess"}}, []bench.SolverSpec{{Name: "mcts"}}
	if err := boundedRuns(fess, alone); err == nil {
		t.Error("fess with --iterations alone: accepted")
	}
	if boundedRuns(mcts, alone) != nil || boundedRuns(fess, timed) != nil {
		t.Error("a bounded run refused")
	}
	// soko solve too.
	var u usageError
	if _, _, err := soko(t, "", "solve", "--algo", "astar", "--iterations", "5", "--time", "0", "microban:1"); !errors.As(err, &u) || !strings.Contains(err.Error(), "astar counts no iterations") {
		t.Errorf("solve astar with --iterations alone: %v", err)
	}
	if _, _, err := soko(t, "", "solve", "--algo", "mcts-r", "--iterations", "5", "--time", "0", "--no-solution", "microban:1"); err != nil {
		t.Errorf("solve mcts-r with --iterations alone: %v", err)
	}
}
