package regress

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	_ "soko/alphazero" // registers alphazero
	_ "soko/distance"  // registers greedy-dist and mcts-dist
	"soko/generate"
	"soko/internal/testlevel"
	"soko/level"
	_ "soko/lts"    // registers lts
	_ "soko/mcts"   // registers the MCTS solvers
	_ "soko/puct"   // registers puct
	_ "soko/qlearn" // registers qlearn and qstar
	"soko/solver"
)

// solvableGenerated is how many generated levels TestNoFalseNoSolution
// adds to Microban's: package generate replays each one's construction,
// so every one is solvable.
const solvableGenerated = 20

// noFalseBudget is each run's budget in TestNoFalseNoSolution: small, so
// that most runs end on a budget and the test takes some 20 s on two cores;
// the time limit only guards against a solver that ignores the others.
var noFalseBudget = solver.Budget{Nodes: 500, Iterations: 500, Time: 5 * time.Second}

// noFalseParams are the parameters a solver runs with there: qstar's
// sub-goal searches get 200 expansions instead of 5,000, as its actions,
// which the node budget counts, each start one.
var noFalseParams = map[string]map[string]string{"qstar": {"subgoal-nodes": "200"}}

// TestNoFalseNoSolution runs every registered solver, as it runs without a
// model, on every Microban level and on solvable generated levels: none
// may say "no solution", which claims a proof that the level is
// unsolvable. greedy-dist once said it on 12 of Microban's levels in no
// time, taking its estimate's cap for a dead end.
func TestNoFalseNoSolution(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every solver on 175 levels")
	}
	ls := testlevel.Resolve(t, "microban")
	for i := 1; i <= solvableGenerated; i++ {
		g, err := generate.One(context.Background(), generate.Config{Seed: 49}, i)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, g.Level)
	}
	type run struct {
		e solver.Entry
		l *level.Level
	}
	runs := make(chan run)
	var mu sync.Mutex
	statuses := map[string]map[solver.Status]int{} // by solver
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for r := range runs {
				opts := solver.Options{Budget: noFalseBudget, Params: noFalseParams[r.e.Name], Seed: 1}
				res, err := solver.Run(context.Background(), r.e.New(), r.l, opts)
				mu.Lock()
				switch {
				case err != nil:
					t.Errorf("%s on %s: %v", r.e.Name, r.l.Name(), err)
				case res.Status == solver.NoSolution:
					t.Errorf("%s on %s: no solution after %d expansions, %d iterations; the level is solvable",
						r.e.Name, r.l.Name(), res.Stats.Expanded, res.Stats.Iterations)
				}
				if statuses[r.e.Name] == nil {
					statuses[r.e.Name] = map[solver.Status]int{}
				}
				statuses[r.e.Name][res.Status]++
				mu.Unlock()
			}
		})
	}
	for _, e := range solver.Entries() {
		for _, l := range ls {
			runs <- run{e, l}
		}
	}
	close(runs)
	wg.Wait()
	for _, name := range slices.Sorted(maps.Keys(statuses)) {
		var parts []string
		for _, st := range solver.Statuses() {
			if n := statuses[name][st]; n > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", st, n))
			}
		}
		t.Logf("%-12s %s", name, strings.Join(parts, ", "))
	}
}
