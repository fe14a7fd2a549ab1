package parallel

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestEachRunsEveryJobOnce runs a batch on several goroutine counts, more
// than the jobs included, and checks each job ran once.
func TestEachRunsEveryJobOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 50} {
		const n = 20
		var ran [n]atomic.Int32
		if err := Each(context.Background(), n, workers, func(i int) { ran[i].Add(1) }); err != nil {
			t.Fatal(err)
		}
		for i := range ran {
			if got := ran[i].Load(); got != 1 {
				t.Errorf("workers %d: job %d ran %d times, want once", workers, i, got)
			}
		}
	}
}

// TestRunGivesEachGoroutineItsOwnWorker checks that no two goroutines
// share a worker's state: each job marks its worker busy while it runs.
func TestRunGivesEachGoroutineItsOwnWorker(t *testing.T) {
	type worker struct{ busy atomic.Bool }
	var made atomic.Int32
	var shared atomic.Bool
	err := Run(context.Background(), 200, 4, func() *worker { made.Add(1); return &worker{} }, func(w *worker, i int) {
		if !w.busy.CompareAndSwap(false, true) {
			shared.Store(true)
		}
		w.busy.Store(false)
	})
	if err != nil {
		t.Fatal(err)
	}
	if shared.Load() {
		t.Error("two goroutines used one worker at once")
	}
	if got := made.Load(); got != 4 {
		t.Errorf("%d workers made, want 4", got)
	}
}

// TestRunStopsWhenCancelled cancels the context from the first job: the
// jobs stop being handed out (a send races the cancellation at each step,
// so a few more may run, but not all of them), and Run reports the
// cancellation.
func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := Each(ctx, 1000, 1, func(i int) {
		ran.Add(1)
		cancel()
	})
	if err != context.Canceled {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if got := ran.Load(); got == 1000 {
		t.Error("every job ran after the cancellation")
	}
}
