package regress

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	_ "soko/alphazero" // registers alphazero
	_ "soko/distance"  // registers greedy-dist and mcts-dist
	"soko/generate"
	"soko/internal/testlevel"
	"soko/level"
	_ "soko/mcts"   // registers the MCTS solvers
	_ "soko/puct"   // registers puct
	_ "soko/qlearn" // registers qlearn and qstar
	"soko/solver"
)

// TestNoFalseNoSolution runs every registered solver on every Microban
// level and on generated levels, all solvable, with small budgets: none
// may say "no solution", which means proved unsolvable.
func TestNoFalseNoSolution(t *testing.T) {
	ls := testlevel.Resolve(t, "microban")
	for i := 1; i <= 20; i++ {
		g, err := generate.One(context.Background(), generate.Config{Seed: 49}, i)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, g.Level)
	}
	budget := solver.Budget{Nodes: 500, Iterations: 500, Time: 2 * time.Second}
	type job struct {
		e solver.Entry
		l *level.Level
	}
	jobs := make(chan job)
	var mu sync.Mutex
	per := map[string]time.Duration{}
	st := map[string]int{}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				start := time.Now()
				res, err := solver.Run(context.Background(), j.e.New(), j.l, solver.Options{Budget: budget, Seed: 1})
				mu.Lock()
				took := time.Since(start)
				if err != nil {
					t.Errorf("%s on %s: %v", j.e.Name, j.l.Name(), err)
				} else if res.Status == solver.NoSolution {
					t.Errorf("%s on %s: no solution (expanded %d, iterations %d) in %v", j.e.Name, j.l.Name(), res.Stats.Expanded, res.Stats.Iterations, took)
				}
				per[j.e.Name] += took
				st[j.e.Name+" "+res.Status.String()]++
				mu.Unlock()
			}
		}()
	}
	for _, e := range solver.Entries() {
		for _, l := range ls {
			jobs <- job{e, l}
		}
	}
	close(jobs)
	wg.Wait()
	for k, v := range per {
		fmt.Printf("TIME %s %v\n", k, v)
	}
	for k, v := range st {
		fmt.Printf("STAT %s %d\n", k, v)
	}
}
