package report

import (
	"fmt"
	"strings"

	"soko/bench"
)

// Time is which of a run's times the report's tables and plots use (soko
// report --time). A run's wall time holds the optimizer's work on its
// solution as well as the search's (bench.Record.OptimizeS), so a solver
// that answers in a millisecond is timed at the optimizer's half second;
// the solve time is the search's alone, to its verified answer, and is
// the default.
type Time string

const (
	// SolveTime is bench.Record.SolveTime: solve_s, or, in records
	// written before it, wall_s less optimize_s.
	SolveTime Time = "solve"
	// WallTime is wall_s: the whole run, the optimizer included.
	WallTime Time = "wall"
	// CPUTime is cpu_s, the optimizer included, where it was measured
	// (bench.Record.CPUMeasured); a run without it has no time of this
	// kind, and is left out of the times and counted where it is.
	CPUTime Time = "cpu"
)

// Times are the kinds of time, the default first.
var Times = []Time{SolveTime, WallTime, CPUTime}

// ParseTime reads a kind of time by its name: solve, wall or cpu.
func ParseTime(s string) (Time, error) {
	for _, t := range Times {
		if string(t) == s {
			return t, nil
		}
	}
	names := make([]string, len(Times))
	for i, t := range Times {
		names[i] = string(t)
	}
	return "", fmt.Errorf("want a kind of time: %s", strings.Join(names, ", "))
}

// kind is t, or SolveTime when t is unset.
func (t Time) kind() Time {
	if t == "" {
		return SolveTime
	}
	return t
}

// of is run r's time of this kind in seconds, and whether r has one: a
// run whose CPU time was not measured has no CPU time.
func (t Time) of(r *bench.Record) (float64, bool) {
	switch t.kind() {
	case WallTime:
		return r.WallS, true
	case CPUTime:
		return r.CPUS, r.CPUMeasured()
	}
	return r.SolveTime(), true
}

// name is the time's short name, for a column's header and an axis:
// "solve time", "wall time", "CPU time".
func (t Time) name() string {
	if t.kind() == CPUTime {
		return "CPU time"
	}
	return string(t.kind()) + " time"
}

// axis is the time's name with what it counts, for an axis's label:
// "solve time (search only)".
func (t Time) axis() string {
	if t.kind() == SolveTime {
		return t.name() + " (search only)"
	}
	return t.name() + " (search and optimizer)"
}

// meaning says what the time counts, for a table's note and a plot's
// title.
func (t Time) meaning() string {
	switch t.kind() {
	case WallTime:
		return "wall time: the whole run, the optimizer's work on the solution included"
	case CPUTime:
		return "CPU time: the run's own, the optimizer's work on the solution included; runs whose CPU time was not measured (cpu_scope none) have none, and are left out of the times"
	}
	return "solve time: the search's, to its verified answer, without the optimizer's work on the solution"
}

// solvedTimes are the times of the solved runs of rs, and how many solved
// runs have no time of this kind (CPU time not measured).
func (t Time) solvedTimes(rs []*bench.Record) (times []float64, without int) {
	for _, r := range rs {
		if !r.Solved() {
			continue
		}
		if x, ok := t.of(r); ok {
			times = append(times, x)
		} else {
			without++
		}
	}
	return times, without
}

// par2 is the PAR-2 score of runs rs at budget b: the mean over the runs
// of the time of a solved run and twice the time limit for a run not
// solved (a verified solution; a proof of no solution is not one), as
// SAT competitions rank solvers. It has none without a time limit, or
// when a solved run has no time of this kind.
func (t Time) par2(rs []*bench.Record, b bench.Budget) (float64, bool) {
	if b.Time <= 0 || len(rs) == 0 {
		return 0, false
	}
	penalty := 2 * b.Time.Seconds()
	sum := 0.0
	for _, r := range rs {
		if !r.Solved() {
			sum += penalty
			continue
		}
		x, ok := t.of(r)
		if !ok {
			return 0, false
		}
		sum += x
	}
	return sum / float64(len(rs)), true
}
