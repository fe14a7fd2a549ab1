package solver_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"soko/level"
	"soko/solver"
)

// failer is a resumable member whose first slice fails.
type failer struct{}

func (failer) Slice(context.Context, *level.Level, solver.Options, solver.Slice) (solver.Result, solver.Pause, error) {
	return solver.Result{}, solver.Pause{}, errors.New("broken")
}

func (failer) End(solver.Status) solver.Stats { return solver.Stats{} }

// TestRoundsErrorEndsPaused: when a member's error ends the run, the
// members left paused are ended too (End: their traces get an end record),
// as they are when the run ends any other way.
func TestRoundsErrorEndsPaused(t *testing.T) {
	for _, threads := range []int{1, 2} {
		a := &stepper{}
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "a", Resumable: a, Share: 1},
			{Name: "b", Resumable: &stepper{}, Share: 1},
			{Name: "broken", Resumable: failer{}, Share: 1},
		}}
		_, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Time: 10 * time.Second}})
		if err == nil {
			t.Fatalf("threads %d: no error", threads)
		}
		a.mu.Lock()
		if a.paused && !a.endedOK {
			t.Errorf("threads %d: a ran %d slices, was left paused, and was never ended", threads, len(a.slices))
		}
		a.mu.Unlock()
	}
}
