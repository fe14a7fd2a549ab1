package report

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"soko/bench"
)

// WriteBenchstat writes the runs in the Go benchmark format, so that two
// versions of a solver can be compared with benchstat:
//
//	BenchmarkSolve/solver=astar/budget=t10s/level=microban:12  1  1234567 ns/op  0.0012 cpu-sec/op  12 pushes  1 solved  345 nodes/op
//
// ns/op is the run's time of kind t (an empty t is SolveTime), and a run
// without one (CPU time not measured) has no ns/op. One line per run
// (seeds are repetitions), plus one BenchmarkSolved line
// per collection, solver and budget with the levels solved by each seed.
// Level ids and budgets are written without '/', ' ' and '=' so that
// benchstat reads the names back.
func WriteBenchstat(w io.Writer, recs []bench.Record, t Time) error {
	d := newDataset(recs)
	bw := &bytes.Buffer{}
	fmt.Fprintln(bw, "pkg: soko/bench")
	fmt.Fprintln(bw, "note: one line per run; compare two results files with benchstat")
	fmt.Fprintf(bw, "time: ns/op is the %s\n", t.meaning())
	for i := range d.recs {
		r := &d.recs[i]
		solved := 0
		if r.Solved() {
			solved = 1
		}
		ns := ""
		if x, ok := t.of(r); ok {
			ns = fmt.Sprintf("\t%d ns/op", int64(math.Round(x*1e9)))
		}
		cpu := "" // a run whose CPU time was not measured has no cpu-sec/op
		if r.CPUMeasured() {
			cpu = fmt.Sprintf("\t%.6f cpu-sec/op", r.CPUS)
		}
		fmt.Fprintf(bw, "BenchmarkSolve/solver=%s/budget=%s/level=%s\t1%s%s\t%d pushes\t%d moves\t%d solved\t%d nodes/op\t%d iterations/op\t%d peak-B\n",
			benchName(r.SolverLabel()), r.Budget.Format("", "+"), benchName(d.levelName(r.Level)), ns, cpu,
			r.Pushes, r.Moves, solved, r.Expanded, r.Iterations, r.PeakBytes)
	}
	for _, c := range d.collections {
		for _, s := range d.solversOf(c) {
			for _, b := range d.budgetsOf(c) {
				bySeed := map[uint64]int{}
				for _, r := range d.groups[gkey{c, s, b.String()}] {
					if _, ok := bySeed[r.Seed]; !ok {
						bySeed[r.Seed] = 0
					}
					if r.Solved() {
						bySeed[r.Seed]++
					}
				}
				seeds := slices.Sorted(maps.Keys(bySeed))
				for _, seed := range seeds {
					fmt.Fprintf(bw, "BenchmarkSolved/collection=%s/solver=%s/budget=%s\t1\t%d levels\n",
						benchName(c), benchName(s), b.Format("", "+"), bySeed[seed])
				}
			}
		}
	}
	_, err := w.Write(bw.Bytes())
	return err
}

// benchName makes s usable inside a benchmark name part (distinctly).
func benchName(s string) string {
	return distinctly(s, strings.NewReplacer("/", "_", " ", "_", "=", ":", "\t", "_").Replace(s))
}
