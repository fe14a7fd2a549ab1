package solver_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
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

// panicker is a run-once member that panics.
type panicker struct{}

func (panicker) Solve(context.Context, *level.Level, solver.Options) (solver.Result, error) {
	panic("boom")
}

// TestRoundsPanicReachesCaller: a member's panic reaches the caller's
// goroutine with any number of threads, so that a caller that recovers
// (the web server's jobs) recovers it, instead of the process dying on a
// worker's goroutine.
func TestRoundsPanicReachesCaller(t *testing.T) {
	for _, threads := range []int{1, 2} {
		got := func() (p any) {
			defer func() { p = recover() }()
			port := solver.Portfolio{Members: []solver.Member{
				{Name: "a", Resumable: &stepper{}, Share: 1},
				{Name: "bad", Solver: panicker{}, Share: 1},
			}}
			solver.Run(context.Background(), port, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Time: 5 * time.Second}})
			return nil
		}()
		if got == nil || !strings.Contains(fmt.Sprint(got), "boom") {
			t.Errorf("threads %d: recovered %v; want the member's panic", threads, got)
		}
	}
}

// sleeper is a run-once member that takes its time whatever its context
// says, and notes when it has ended.
type sleeper struct{ ended atomic.Bool }

func (s *sleeper) Solve(context.Context, *level.Level, solver.Options) (solver.Result, error) {
	time.Sleep(300 * time.Millisecond)
	s.ended.Store(true)
	return solver.Result{Status: solver.GaveUp}, nil
}

// TestRoundsPanicWaitsForOthers: with threads, a member's panic reaches
// the caller only once the members running beside it have ended, and the
// members left paused are ended too, as after an error: nothing of the run
// goes on after the caller has recovered.
func TestRoundsPanicWaitsForOthers(t *testing.T) {
	a, slow := &stepper{}, &sleeper{}
	got := func() (p any) {
		defer func() { p = recover() }()
		port := solver.Portfolio{Members: []solver.Member{
			{Name: "a", Resumable: a, Share: 1},
			{Name: "slow", Solver: slow, Share: 1},
			{Name: "bad", Solver: panicker{}, Share: 1},
		}}
		solver.Run(context.Background(), port, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Time: 5 * time.Second}})
		return nil
	}()
	if got == nil || !strings.Contains(fmt.Sprint(got), "boom") {
		t.Fatalf("recovered %v; want the member's panic", got)
	}
	if !slow.ended.Load() {
		t.Error("the panic reached the caller while a member beside it still ran")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.paused && !a.endedOK {
		t.Errorf("a ran %d slices, was left paused, and was never ended", len(a.slices))
	}
}
