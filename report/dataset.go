package report

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"soko/bench"
	"soko/solver"
)

// dataset is the records of a report, indexed.
type dataset struct {
	recs        []bench.Record
	collections []string          // as shown: see collectionNames
	collOf      map[string]string // bench.Record.Collection() → as shown
	solvers     []string          // labels
	budgets     []bench.Budget
	levels      map[string][]string // collection → level ids in order
	titles      map[string]string   // level id → title
	groupSeeds  map[gkey]int        // group → number of distinct seeds it ran
	reboarded   []string            // levels with runs on more than one board (reboarded)
	groups      map[gkey][]*bench.Record
	time        Time // the time the tables and plots use
	optimized   bool // Options.Optimized
}

type gkey struct{ coll, solver, budget string }

// reboarded returns the levels whose runs name more than one board
// (level_hash: the file was edited between runs), sorted. Which board is
// the level's now the records cannot tell (they carry no time, and merged
// files are sorted), so the report says so rather than pick one.
func reboarded(recs []bench.Record) []string {
	boards := map[string]map[string]bool{}
	for _, r := range recs {
		if r.LevelHash == "" {
			continue
		}
		if boards[r.Level] == nil {
			boards[r.Level] = map[string]bool{}
		}
		boards[r.Level][r.LevelHash] = true
	}
	var out []string
	for lvl, hs := range boards {
		if len(hs) > 1 {
			out = append(out, lvl)
		}
	}
	slices.SortFunc(out, bench.CompareLevelIDs)
	return out
}

func newDataset(recs []bench.Record) *dataset {
	recs, _ = bench.Dedup(slices.Clone(recs))
	bench.SortRecords(recs)
	refute(recs)
	d := &dataset{time: SolveTime, recs: recs, collOf: collectionNames(recs), levels: map[string][]string{}, titles: map[string]string{}, groupSeeds: map[gkey]int{}, groups: map[gkey][]*bench.Record{}}
	d.reboarded = reboarded(recs)
	colls, solvers, budgets := map[string]bool{}, map[string]bool{}, map[string]bench.Budget{}
	lvls := map[string]bool{}
	for i := range recs {
		r := &recs[i]
		c := d.collOf[r.Collection()]
		colls[c], solvers[r.SolverLabel()] = true, true
		budgets[r.Budget.String()] = r.Budget
		if !lvls[r.Level] {
			lvls[r.Level] = true
			d.levels[c] = append(d.levels[c], r.Level)
			d.titles[r.Level] = r.Title
		}
		k := gkey{c, r.SolverLabel(), r.Budget.String()}
		d.groups[k] = append(d.groups[k], r)
	}
	for k, rs := range d.groups {
		seen := map[uint64]bool{}
		for _, r := range rs {
			seen[r.Seed] = true
		}
		d.groupSeeds[k] = len(seen)
	}
	for c := range colls {
		d.collections = append(d.collections, c)
		slices.SortFunc(d.levels[c], bench.CompareLevelIDs)
	}
	sort.Strings(d.collections)
	for s := range solvers {
		d.solvers = append(d.solvers, s)
	}
	sort.Strings(d.solvers)
	for _, b := range budgets {
		d.budgets = append(d.budgets, b)
	}
	slices.SortFunc(d.budgets, bench.Budget.Compare)
	return d
}

// StatusRefuted is the status a report gives a run that said "no
// solution" for a level another run of the same results solved with a
// verified solution: the claim is false (a solver once took its
// heuristic's horizon for a proof), and the report does not repeat it.
const StatusRefuted = "no solution, refuted"

// refute gives StatusRefuted to every "no solution" of recs whose level
// (by LevelHash) a run of recs solved.
func refute(recs []bench.Record) {
	solved := map[string]bool{}
	for i := range recs {
		if recs[i].Solved() && recs[i].LevelHash != "" {
			solved[recs[i].LevelHash] = true
		}
	}
	for i := range recs {
		if r := &recs[i]; r.Status == solver.NoSolution.String() && solved[r.LevelHash] {
			r.Status = StatusRefuted
		}
	}
}

// collectionNames maps each collection of recs to the name reports show: an
// embedded collection's name, or a level file's base name ("levels.xsb", not
// "/home/me/levels/levels.xsb"). Two files with the same base name keep the
// path they were named by.
func collectionNames(recs []bench.Record) map[string]string {
	full := map[string]bool{}
	for i := range recs {
		full[recs[i].Collection()] = true
	}
	byBase := map[string][]string{}
	for c := range full {
		b := filepath.Base(c)
		byBase[b] = append(byBase[b], c)
	}
	out := map[string]string{}
	for b, cs := range byBase {
		for _, c := range cs {
			if len(cs) == 1 {
				out[c] = b
			} else {
				out[c] = c
			}
		}
	}
	return out
}

// levelName is a level id as reports show it: with its collection's shown
// name ("levels.xsb:3").
func (d *dataset) levelName(id string) string {
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		return d.collOf[id[:i]] + id[i:]
	}
	return d.collOf[id]
}

// cell is one (collection, solver, budget) group's solved count.
type cell struct {
	solved   float64 // mean over seeds
	complete bool    // every level × seed has a run
	runs     int
}

func (d *dataset) cell(coll, solver string, b bench.Budget) (cell, bool) {
	rs := d.groups[gkey{coll, solver, b.String()}]
	if len(rs) == 0 {
		return cell{}, false
	}
	n := 0
	for _, r := range rs {
		if r.Solved() {
			n++
		}
	}
	// Each group's mean is over its own seeds: a solver run on one seed
	// beside another on four is not divided by four.
	seeds := d.groupSeeds[gkey{coll, solver, b.String()}]
	return cell{solved: float64(n) / float64(seeds), complete: len(rs) == len(d.levels[coll])*seeds, runs: len(rs)}, true
}

// seedsNote is what a title of collection c adds for seeds: the number its
// groups' counts are means over, or that each solver's are over its own
// when they differ; "" for one seed.
func (d *dataset) seedsNote(c string) string {
	n, same := 0, true
	for k, s := range d.groupSeeds {
		if k.coll != c {
			continue
		}
		same = same && (n == 0 || s == n)
		n = max(n, s)
	}
	switch {
	case !same:
		return "mean over each solver's seeds"
	case n > 1:
		return fmt.Sprintf("mean over %d seeds", n)
	}
	return ""
}

// budgetsOf returns the budgets that occur in a collection.
func (d *dataset) budgetsOf(coll string) []bench.Budget {
	var out []bench.Budget
	for _, b := range d.budgets {
		if slices.ContainsFunc(d.solvers, func(s string) bool { return d.has(coll, s, b) }) {
			out = append(out, b)
		}
	}
	return out
}

// solversOf returns the solvers that occur in a collection.
func (d *dataset) solversOf(coll string) []string {
	var out []string
	for _, s := range d.solvers {
		if slices.ContainsFunc(d.budgets, func(b bench.Budget) bool { return d.has(coll, s, b) }) {
			out = append(out, s)
		}
	}
	return out
}

// has reports whether solver s has runs on collection coll at budget b.
func (d *dataset) has(coll, s string, b bench.Budget) bool {
	_, ok := d.groups[gkey{coll, s, b.String()}]
	return ok
}

// notVerified is the status the report gives a run that says it solved its
// level without a verified solution.
const notVerified = "solved, not verified"

// statusOf is how a run ended, as the report counts it.
func statusOf(r *bench.Record) string {
	if r.Status == "solved" && !r.Verified {
		return notVerified
	}
	return r.Status
}

// statuses lists how the runs ended: "solved" first, then the solver's
// statuses in their own order, then failed and error, then any other, each
// only if some run ended so ("solved" always).
func (d *dataset) statuses() []string {
	seen := map[string]bool{}
	for i := range d.recs {
		seen[statusOf(&d.recs[i])] = true
	}
	out := []string{"solved"}
	delete(seen, "solved")
	var known []string
	for _, st := range solver.Statuses()[1:] { // after solved
		known = append(known, st.String())
	}
	for _, st := range append(known, bench.StatusFailed, bench.StatusError, notVerified, StatusRefuted) {
		if seen[st] {
			out = append(out, st)
			delete(seen, st)
		}
	}
	return append(out, slices.Sorted(maps.Keys(seen))...)
}

// countStatus counts the runs with the given status and names their
// solvers: "fake 3, other 1".
func (d *dataset) countStatus(status string) (int, string) {
	n := 0
	for i := range d.recs {
		if d.recs[i].Status == status {
			n++
		}
	}
	return n, d.statusBySolver("", status)
}

// statusBySolver names the solvers with runs of the given status in a
// collection (all when coll is ""), with their counts: "fake 3, other 1".
func (d *dataset) statusBySolver(coll, status string) string {
	bySolver := map[string]int{}
	for i := range d.recs {
		r := &d.recs[i]
		if r.Status == status && (coll == "" || d.collOf[r.Collection()] == coll) {
			bySolver[r.SolverLabel()]++
		}
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(bySolver)) {
		parts = append(parts, s+" "+strconv.Itoa(bySolver[s]))
	}
	return strings.Join(parts, ", ")
}

// sharedRuns returns the runs of solvers a and b in collection c at the
// largest budget both ran there, and false when they share none: the
// budget the comparisons of two solvers (push differences, time pairs)
// are made at.
func (d *dataset) sharedRuns(c, a, b string) (bench.Budget, []*bench.Record, []*bench.Record, bool) {
	bs := d.budgetsOf(c)
	for i := len(bs) - 1; i >= 0; i-- {
		ra, rb := d.groups[gkey{c, a, bs[i].String()}], d.groups[gkey{c, b, bs[i].String()}]
		if len(ra) > 0 && len(rb) > 0 {
			return bs[i], ra, rb, true
		}
	}
	return bench.Budget{}, nil, nil, false
}
