// Package memtest measures what a search's tables really cost, for tests
// that hold a solver's own accounting (the Stats.Bytes it stops on under
// --memory) against the Go heap.
package memtest

import (
	"runtime"
	"runtime/debug"
)

// Cost is what growing a search's tables cost.
type Cost struct {
	Counted   int64 // what the search's accounting says its tables hold
	Live      int64 // heap still in use after a collection: the tables' real size
	Allocated int64 // heap allocated while they grew, copies and garbage included
	Stack     int64 // goroutine stack grown meanwhile (a recursive search's)
}

// Measure runs grow with the collector off and returns what it allocated,
// what stays live, and what its count says. grow builds and grows the
// tables and returns a count of their bytes, which must hold on to them:
// they stay alive until count has been called after the collection.
// Allocated bounds the peak the tables reached: a table grown by copying
// holds the old copy beside the new at each growth. Measure must not run
// beside other tests (no t.Parallel).
func Measure(grow func() (count func() int64)) Cost {
	runtime.GC()
	var before, grown, after runtime.MemStats
	runtime.ReadMemStats(&before)
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(1 << 62)
	count := grow()
	runtime.ReadMemStats(&grown)
	debug.SetGCPercent(gc)
	debug.SetMemoryLimit(limit)
	runtime.GC()
	runtime.ReadMemStats(&after)
	return Cost{
		Counted:   count(),
		Live:      int64(after.HeapAlloc) - int64(before.HeapAlloc),
		Allocated: int64(grown.TotalAlloc - before.TotalAlloc),
		Stack:     int64(grown.StackInuse) - int64(before.StackInuse),
	}
}
