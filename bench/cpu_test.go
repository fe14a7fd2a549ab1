package bench

import (
	"context"
	"crypto/sha256"
	"runtime"
	"testing"

	"soko/levels"
)

// burn does a fixed amount of work: about 50 ms of one core.
func burn() byte {
	buf := make([]byte, 1<<20)
	var sum [32]byte
	for range 64 {
		sum = sha256.Sum256(buf)
		buf[0] = sum[0]
	}
	return sum[0]
}

// TestProcessCPU: the process's clock counts work done on another goroutine,
// which the waiting thread's clock does not; that is why a run with more
// than one thread is measured by the process's clock.
func TestProcessCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU time is read on Linux only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := processCPU(), threadCPU()
	done := make(chan byte)
	go func() { done <- burn() }()
	<-done
	p1, t1 := processCPU(), threadCPU()
	if p0 < 0 || t0 < 0 || p1 <= p0 || t1 < t0 {
		t.Fatalf("clocks: process %v → %v, thread %v → %v", p0, p1, t0, t1)
	}
	if work, waited := p1-p0, t1-t0; work < 10*waited {
		t.Errorf("the process's clock counted %v for work on another goroutine, the waiting thread's %v; want far more", work, waited)
	}
	// The same work on this thread is on its clock.
	burn()
	if t2 := threadCPU(); t2-t1 < (p1-p0)/10 {
		t.Errorf("the thread's clock counted %v for work on it, the process's %v for the same work", t2-t1, p1-p0)
	}
}

// TestCPUScope: a one-thread run is timed by its thread's clock; a run with
// two threads by the process's clock when it runs alone, and not at all
// beside other runs (which reports leave out: report's TestUnmeasuredCPU).
func TestCPUScope(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU time is read on Linux only")
	}
	lvls, err := levels.Resolve("microban:1-2", nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(threads, workers int) []Record {
		jobs := planJobs(t, []SolverSpec{{Name: "portfolio", Threads: threads}}, lvls, Budgets(nil, []int64{20000}, nil), []uint64{1})
		var recs []Record
		r := &Runner{Workers: workers, Write: func(rec Record) error { recs = append(recs, rec); return nil }}
		if _, err := r.runList(context.Background(), jobs); err != nil {
			t.Fatal(err)
		}
		return recs
	}
	for _, tc := range []struct {
		threads, workers int
		scope            string
	}{{1, 2, CPUThread}, {2, 1, CPUProcess}, {2, 2, CPUNone}} {
		for _, rec := range run(tc.threads, tc.workers) {
			if !rec.Solved() || rec.CPUScope != tc.scope || rec.CPUMeasured() != (tc.scope != CPUNone) ||
				(tc.scope == CPUNone) != (rec.CPUS == 0) {
				t.Errorf("%d threads, %d workers, %s: %s, cpu_s %g (%q); want solved, cpu_scope %q", tc.threads, tc.workers, rec.Level, rec.Status, rec.CPUS, rec.CPUScope, tc.scope)
			}
		}
	}

}
