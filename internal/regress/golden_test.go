package regress

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"soko/bench"
	"soko/fess"
	"soko/internal/golden"
	"soko/internal/testlevel"
	"soko/level"
	_ "soko/search" // registers astar, greedy and wastar
	"soko/solver"
)

// goldenXSokoban and goldenMicroban are the levels of TestGolden: every
// fourth or fifth of XSokoban's 90 and every eighth of Microban's 155.
const goldenXSokoban = "xsokoban90:1,5,9,13,17,21,25,29,33,37,42,46,50,54,58,63,67,72,76,81"

const goldenMicroban = "microban:1,9,17,25,33,41,49,57,65,73,81,89,97,105,113,121,129,137,145,153"

// goldenRun is one solver configuration of TestGolden with its node budget.
type goldenRun struct {
	spec  string // NAME[:k=v...], as soko bench takes it
	nodes int64
}

// goldenRuns are the configurations TestGolden pins: each fess strategy
// alone (every row of fess's strategy table), the default portfolio and the backward-search options, astar,
// greedy, wastar, and wastar as the 001 preset (qstar) runs it (today the
// same as wastar's defaults; pinned apart so that neither can drift). The
// budgets keep the whole test near 20 s on one core, 10 s on two.
func goldenRuns(t *testing.T) []goldenRun {
	var runs []goldenRun
	for _, s := range fess.Strategies() {
		runs = append(runs, goldenRun{"fess:strategies=" + s, fessNodes})
	}
	runs = append(runs,
		goldenRun{"fess", fessNodes},
		goldenRun{"fess:strategies=plan:backward=0.3", fessNodes},
		goldenRun{"fess:strategies=plan:backplan=1", fessNodes},
		goldenRun{"astar", pushNodes},
		goldenRun{"greedy", pushNodes},
		goldenRun{"wastar", moveNodes},
	)
	p, err := bench.LookupPreset("qstar")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Solvers {
		if strings.HasPrefix(s, "wastar:") {
			runs = append(runs, goldenRun{s, moveNodes})
		}
	}
	return runs
}

// Node budgets: fess expands macro-moves (each a box pushed anywhere it
// can reach), astar and greedy single pushes, wastar single moves.
const (
	fessNodes = 300
	pushNodes = 2_000
	moveNodes = 5_000
)

// TestGolden pins what each search does at a fixed node budget: its status,
// expanded, generated and stored positions, and the pushes of a solution,
// for every configuration of goldenRuns on goldenXSokoban and
// goldenMicroban. A refactoring must leave testdata/golden.txt as it is;
// a change of behaviour rewrites it with go test -run Golden -update and
// says why in its commit.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every solver on 40 levels")
	}
	ls := append(testlevel.Resolve(t, goldenXSokoban), testlevel.Resolve(t, goldenMicroban)...)
	runs := goldenRuns(t)
	got := make([]string, len(runs))
	t.Run("runs", func(t *testing.T) {
		for i, r := range runs {
			t.Run(r.spec, func(t *testing.T) {
				t.Parallel()
				got[i] = goldenBlock(t, r, ls)
			})
		}
	})
	golden.Check(t, "golden.txt", strings.Join(got, ""))
}

// goldenBlock runs r on every level of ls and formats what TestGolden pins.
func goldenBlock(t *testing.T, r goldenRun, ls []*level.Level) string {
	spec, err := bench.ParseSolverSpec(r.spec)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := solver.Lookup(spec.Name)
	if !ok {
		t.Fatalf("%s: not registered", spec.Name)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "# %s, %d expansions\n", r.spec, r.nodes)
	for _, l := range ls {
		fmt.Fprintf(&out, "%s\n", goldenLine(t, e, spec.Params, l, r.nodes))
	}
	return out.String()
}

// goldenLine runs e on l and formats what TestGolden pins.
func goldenLine(t *testing.T, e solver.Entry, params map[string]string, l *level.Level, nodes int64) string {
	opts := solver.Options{Budget: solver.Budget{Nodes: nodes}, Params: params}
	res, err := solver.Run(context.Background(), e.New(), l, opts)
	if err != nil {
		t.Fatalf("%s on %s: %v", e.Name, l.Name(), err)
	}
	s := res.Stats
	return fmt.Sprintf("%-14s %-10s expanded %6d generated %7d stored %7d pushes %4d",
		l.Name(), res.Status, s.Expanded, s.Generated, s.Stored, res.Pushes)
}
