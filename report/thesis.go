package report

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"soko/bench"
)

// The Schokoban thesis's logged results (000 Tables 6.1/6.2), one row per
// collection, algorithm, iteration budget and level; see data/PROVENANCE.md.
//
//go:embed data/schokoban_results_long.csv
var thesisCSV string

// thesisCollections maps the thesis's collection names to soko's.
var thesisCollections = map[string]string{"CBC": "cbc60", "Microban": "schokoban-microban100"}

// thesisRun is one level's outcome in the thesis's logs.
type thesisRun struct {
	Collection string // soko's name
	Algorithm  string // "Schokoban" or "Vanillaban"
	Iterations int64
	Level      int
	Outcome    string // WIN, LOSS or MISSING
	Pushes     int
}

var thesisOnce = sync.OnceValue(func() []thesisRun {
	rows, err := csv.NewReader(strings.NewReader(thesisCSV)).ReadAll()
	if err != nil {
		panic("report: embedded thesis results: " + err.Error()) // tested
	}
	var runs []thesisRun
	for _, row := range rows[1:] {
		it, _ := strconv.ParseInt(row[2], 10, 64)
		lv, _ := strconv.Atoi(row[3])
		p, _ := strconv.Atoi(row[5])
		runs = append(runs, thesisRun{thesisCollections[row[0]], row[1], it, lv, row[4], p})
	}
	return runs
})

// thesisIterations are the thesis's iteration budgets.
var thesisIterations = []int64{25, 50, 100, 500, 1000, 2000, 5000, 10000, 100000}

// thesisSolved returns how many of levels (their numbers; nil: all) the
// thesis's log says algorithm solved in collection at iters iterations;
// ok is false when the log is missing.
func thesisSolved(collection, algorithm string, iters int64, levels map[int]bool) (n int, ok bool) {
	for _, r := range thesisOnce() {
		if r.Collection != collection || r.Algorithm != algorithm || r.Iterations != iters || levels != nil && !levels[r.Level] {
			continue
		}
		switch r.Outcome {
		case "WIN":
			n++
			ok = true
		case "LOSS":
			ok = true
		}
	}
	return n, ok
}

// thesisPushDiff returns the thesis's per-level push-count differences
// Schokoban − Vanillaban at 100,000 iterations on the levels both solved
// (000 Figs. 6.1/6.2).
func thesisPushDiff(collection string) map[int]int {
	push := map[string]map[int]int{"Schokoban": {}, "Vanillaban": {}}
	for _, r := range thesisOnce() {
		if r.Collection == collection && r.Iterations == 100000 && r.Outcome == "WIN" {
			push[r.Algorithm][r.Level] = r.Pushes
		}
	}
	diff := map[int]int{}
	for lv, s := range push["Schokoban"] {
		if v, ok := push["Vanillaban"][lv]; ok {
			diff[lv] = s - v
		}
	}
	return diff
}

// thesisTables put our counts beside the thesis's logged ones for the
// collections and solvers of 000 Tables 6.1/6.2.
func (d *dataset) thesisTables() []*table {
	var out []*table
	names := map[string]string{"schokoban": "Schokoban", "vanillaban": "Vanillaban"}
	for _, c := range d.collections {
		tableNo := map[string]string{"cbc60": "6.1", "schokoban-microban100": "6.2"}[c]
		if tableNo == "" {
			continue
		}
		var ours []string
		for _, s := range d.solversOf(c) {
			name, _, _ := strings.Cut(s, "(")
			if names[name] != "" {
				ours = append(ours, s)
			}
		}
		if len(ours) == 0 {
			continue
		}
		iters := slices.Clone(thesisIterations)
		for _, b := range d.budgetsOf(c) {
			if b.Iterations > 0 && !slices.Contains(iters, b.Iterations) {
				iters = append(iters, b.Iterations)
			}
		}
		slices.Sort(iters)
		size := map[string]int{"cbc60": 60, "schokoban-microban100": 100}[c]
		part := false // a thesis row counts fewer levels than the collection's
		t := &table{title: fmt.Sprintf("### %s: ours beside the thesis's logs (%s)", c, cite("000", "Table "+tableNo)), header: []string{"iterations"}}
		for _, it := range iters {
			t.header = append(t.header, strconv.FormatInt(it, 10))
		}
		missingLog := false
		for _, s := range ours {
			name, _, _ := strings.Cut(s, "(")
			row := []string{s + " (soko)"}
			for _, it := range iters {
				v := "—"
				for _, b := range d.budgetsOf(c) {
					if b.Iterations == it {
						if cl, ok := d.cell(c, s, b); ok {
							v = formatCount(cl.solved)
							if !cl.complete {
								v += "*"
							}
							break
						}
					}
				}
				row = append(row, v)
			}
			t.rows = append(t.rows, row)
			// Where our solver ran fewer levels, its thesis row counts
			// those levels only, so that the two rows count the same.
			ran := d.levelsRan(c, s)
			if len(ran) < size {
				part = true
			} else {
				ran = nil
			}
			row = []string{names[name] + " (thesis)"}
			if ran != nil {
				row[0] = fmt.Sprintf("%s (thesis, its %d)", names[name], len(ran))
			}
			for _, it := range iters {
				n, ok := thesisSolved(c, names[name], it, ran)
				switch {
				case !slices.Contains(thesisIterations, it):
					row = append(row, "")
				case !ok:
					row = append(row, "n/a")
					missingLog = true
				default:
					row = append(row, strconv.Itoa(n))
				}
			}
			t.rows = append(t.rows, row)
		}
		of := fmt.Sprintf("of %d", size)
		if part {
			of = fmt.Sprintf("of %d; a row marked \"its N\" counts only the N levels the soko row above it ran", size)
		}
		t.notes = append(t.notes, fmt.Sprintf("Thesis rows: levels solved in the thesis's run logs (%s); see report/data/PROVENANCE.md.", of))
		if missingLog {
			t.notes = append(t.notes, "n/a: the thesis's log for this budget is empty (its Table 6.2 says 77).")
		}
		out = append(out, t)
	}
	return out
}

// levelsRan returns the numbers of the levels of collection c that
// solver s ran, under any budget.
func (d *dataset) levelsRan(c, s string) map[int]bool {
	ran := map[int]bool{}
	for k, rs := range d.groups {
		if k.coll != c || k.solver != s {
			continue
		}
		for _, r := range rs {
			_, n := bench.SplitLevelID(r.Level)
			ran[n] = true
		}
	}
	return ran
}
