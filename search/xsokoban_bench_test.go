//go:build unix

package search

import (
	"syscall"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/solver"
)

// cpuTime returns the CPU time this process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkAStarXSokoban expands a fixed number of states on each of
// XSokoban 1–10 (only level 1 is solved within it) and reports expansions
// per second of wall time and per second of CPU time (which a loaded
// machine disturbs less): the speed of A*'s expansion, bound and successor
// generation on boards with many boxes.
func BenchmarkAStarXSokoban(b *testing.B) {
	ls := testlevel.Resolve(b, "xsokoban90:1-10")
	var expanded int64
	cpu := cpuTime(b)
	for b.Loop() {
		expanded = 0
		for _, l := range ls {
			res := run(b, AStar{}, l, solver.Budget{Nodes: 50000})
			expanded += res.Stats.Expanded
		}
	}
	total := float64(expanded) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(total/(cpuTime(b)-cpu).Seconds(), "nodes/cpu-s")
}
