package report

import (
	_ "embed"
	"encoding/csv"
	"strconv"
	"strings"
	"sync"
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
		panic("bench: embedded thesis results: " + err.Error()) // tested
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

// thesisSolved returns how many levels the thesis's log says algorithm
// solved in collection at iters iterations; ok is false when the log is
// missing.
func thesisSolved(collection, algorithm string, iters int64) (n int, ok bool) {
	for _, r := range thesisOnce() {
		if r.Collection != collection || r.Algorithm != algorithm || r.Iterations != iters {
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
