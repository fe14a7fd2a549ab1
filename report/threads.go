package report

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"time"

	"soko/bench"
)

// threadsTable sets each run with N threads at a time limit T beside the
// same solver's one-thread run of the level and seed at N·T (what
// results/threads-curve.sh runs): N threads pay when they solve at least
// what one thread solves in N times the time. One row per solver, N and T,
// over the levels that have both runs; none when no run has its
// counterpart.
func (d *dataset) threadsTable() *table {
	type runKey struct {
		solver, level string
		seed          uint64
		limit         time.Duration
	}
	single := map[runKey]*bench.Record{}
	for i := range d.recs {
		if r := &d.recs[i]; r.Threads <= 1 && timeOnly(r.Budget) {
			single[runKey{r.SolverLabel(), levelKey(r), r.Seed, r.Budget.Time}] = r
		}
	}
	type rowKey struct {
		solver  string
		threads int
		limit   time.Duration
	}
	type tally struct{ levels, many, one, onlyMany, onlyOne int }
	tallies := map[rowKey]*tally{}
	for i := range d.recs {
		r := &d.recs[i]
		if r.Threads <= 1 || !timeOnly(r.Budget) {
			continue
		}
		alone := *r
		alone.Threads = 0
		o, ok := single[runKey{alone.SolverLabel(), levelKey(r), r.Seed, time.Duration(r.Threads) * r.Budget.Time}]
		if !ok {
			continue
		}
		k := rowKey{alone.SolverLabel(), r.Threads, r.Budget.Time}
		t := tallies[k]
		if t == nil {
			t = &tally{}
			tallies[k] = t
		}
		many, one := r.Solved(), o.Solved()
		t.levels++
		if many {
			t.many++
		}
		if one {
			t.one++
		}
		if many && !one {
			t.onlyMany++
		}
		if one && !many {
			t.onlyOne++
		}
	}
	if len(tallies) == 0 {
		return nil
	}
	keys := slices.SortedFunc(maps.Keys(tallies), func(a, b rowKey) int {
		return cmp.Or(cmp.Compare(a.solver, b.solver), cmp.Compare(a.limit, b.limit), cmp.Compare(a.threads, b.threads))
	})
	tb := &table{title: "### Threads: N threads at T against one thread at N·T",
		header: []string{"solver", "threads", "time limit", "levels", "solved, N threads", "solved, one thread at N·T", "only N threads", "only one thread"}}
	for _, k := range keys {
		t := tallies[k]
		tb.rows = append(tb.rows, []string{k.solver, strconv.Itoa(k.threads), bench.Budget{Time: k.limit}.String(),
			strconv.Itoa(t.levels), strconv.Itoa(t.many), strconv.Itoa(t.one), strconv.Itoa(t.onlyMany), strconv.Itoa(t.onlyOne)})
	}
	tb.notes = append(tb.notes, "Each run with N threads at time limit T beside the same solver's one-thread run of the level and seed at N·T, over the levels that have both (soko bench --threads N --time T, and --time N·T without --threads): N threads pay when they solve at least as many.")
	return tb
}

// timeOnly reports whether b limits time alone.
func timeOnly(b bench.Budget) bool {
	return b.Time > 0 && b.Nodes == 0 && b.Iterations == 0
}

// levelKey names r's level across runs: its hash where the record has one
// (the same board under two paths), else its id.
func levelKey(r *bench.Record) string {
	if r.LevelHash != "" {
		return r.LevelHash
	}
	return r.Level
}
