package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"soko/bench"
	_ "soko/fess"
	_ "soko/search"
)

func TestThesisData(t *testing.T) {
	// The counts of the thesis's run logs (data/PROVENANCE.md).
	want := map[string][]int{
		"cbc60/Schokoban":                  {9, 23, 41, 60, 60, 60, 60, 60, 60},
		"cbc60/Vanillaban":                 {4, 12, 16, 38, 41, 44, 49, 49, 50},
		"schokoban-microban100/Schokoban":  {0, 7, 18, 50, 60, 70, -1, 80, 90},
		"schokoban-microban100/Vanillaban": {0, 1, 7, 18, 22, 29, 34, 36, 44},
	}
	for k, counts := range want {
		coll, alg, _ := strings.Cut(k, "/")
		for i, it := range thesisIterations {
			n, ok := thesisSolved(coll, alg, it, nil)
			if counts[i] < 0 {
				if ok {
					t.Errorf("%s at %d: log should be missing", k, it)
				}
				continue
			}
			if !ok || n != counts[i] {
				t.Errorf("%s at %d: %d (%v), want %d", k, it, n, ok, counts[i])
			}
		}
	}
	// On some of the levels, the log's count of those levels only (the
	// log solves 4 of cbc60's first 10 at 25 iterations).
	ten := map[int]bool{}
	for lv := 1; lv <= 10; lv++ {
		ten[lv] = true
	}
	if n, ok := thesisSolved("cbc60", "Schokoban", 25, ten); !ok || n != 4 {
		t.Errorf("cbc60 1-10 at 25: %d (%v), want 4", n, ok)
	}
}

// Beside two solvers that ran different parts of cbc60, each thesis row
// counts the levels its own solver ran.
func TestThesisRowsPerSolver(t *testing.T) {
	var recs []bench.Record
	add := func(solver string, lv int) {
		r := bench.Record{Solver: solver, Level: fmt.Sprintf("cbc60:%d", lv), LevelHash: "h", Budget: bench.Budget{Iterations: 25}, Seed: 1, Status: "iteration limit"}
		r.Key = r.RunKey()
		recs = append(recs, r)
	}
	for lv := 1; lv <= 10; lv++ {
		add("schokoban", lv)
	}
	add("vanillaban", 1)
	var md bytes.Buffer
	if err := Write(&md, recs, Options{NoPlots: true}); err != nil {
		t.Fatal(err)
	}
	// The thesis's logs at 25 iterations: Schokoban solves 4 of cbc60's
	// first 10, Vanillaban level 1.
	for _, want := range []string{"| Schokoban (thesis, its 10) | 4 |", "| Vanillaban (thesis, its 1) | 1 |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("no %q in\n%s", want, md.String())
		}
	}
}
