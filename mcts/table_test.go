package mcts

import (
	"context"
	"fmt"
	"os"
	"slices"
	"soko/internal/testlevel"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/levels"
	"soko/solver"
)

// thesisTables are the solved counts of 000 Tables 6.1 and 6.2 at
// tableBudgets, as logged in ../shared/levels/schokoban-results (-1: no log).
var (
	tableBudgets = []int64{25, 50, 100, 500, 1000, 2000, 5000, 10000, 100000}
	thesisTables = map[string]map[string][]int{
		"cbc60": {
			"schokoban":  {9, 23, 41, 60, 60, 60, 60, 60, 60},
			"vanillaban": {4, 12, 16, 38, 41, 44, 49, 49, 50},
		},
		"schokoban-microban100": {
			"schokoban":  {0, 7, 18, 50, 60, 70, -1, 80, 90},
			"vanillaban": {0, 1, 7, 18, 22, 29, 34, 36, 44},
		},
	}
)

// TestThesisTables reproduces 000 Tables 6.1/6.2. It is slow and runs only
// when MCTS_TABLE is set, to the largest iteration budget (for example
// MCTS_TABLE=10000); MCTS_SEEDS sets the number of seeds (default 1) and
// MCTS_C the UCT constant. Runs are deterministic per seed and iterations are
// the only budget, so the run at a smaller budget is a prefix of the run at
// the largest: one run per level and seed gives every column.
func TestThesisTables(t *testing.T) {
	maxIt, _ := strconv.ParseInt(os.Getenv("MCTS_TABLE"), 10, 64)
	if maxIt <= 0 {
		t.Skip("set MCTS_TABLE to the largest iteration budget to run")
	}
	seeds, _ := strconv.Atoi(os.Getenv("MCTS_SEEDS"))
	seeds = max(seeds, 1)
	params := map[string]string{}
	if c := os.Getenv("MCTS_C"); c != "" {
		params["c"] = c
	}
	if c := os.Getenv("MCTS_CYCLES"); c != "" {
		params["cycles"] = c
	}
	colls := []string{"cbc60", "schokoban-microban100"}
	if c := os.Getenv("MCTS_COLL"); c != "" {
		colls = strings.Split(c, ",")
	}
	for _, coll := range colls {
		ls, err := levels.Resolve(coll, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		fmt.Fprintf(&out, "\n%s, %d seeds, iterations:", coll, seeds)
		for _, b := range tableBudgets {
			if b <= maxIt {
				fmt.Fprintf(&out, "\t%d", b)
			}
		}
		out.WriteString("\n")
		pushes := map[string]map[int]int{}
		names := []string{"vanillaban", "schokoban"}
		if v := os.Getenv("MCTS_SOLVERS"); v != "" {
			names = strings.Split(v, ",")
		}
		for _, name := range names {
			e, _ := solver.Lookup(name)
			counts := make([]float64, len(tableBudgets))
			var iters, elapsed float64
			pushes[name] = map[int]int{}
			for seed := 0; seed < seeds; seed++ {
				for _, l := range ls {
					res, err := solver.Run(context.Background(), e.New(), l, solver.Options{
						Budget: solver.Budget{Iterations: maxIt}, Seed: uint64(seed), Params: params,
					})
					if err != nil {
						t.Fatal(err)
					}
					iters += float64(res.Stats.Iterations)
					elapsed += res.Stats.Elapsed.Seconds()
					if res.Status != solver.Solved {
						continue
					}
					if seed == 0 {
						pushes[name][l.Index] = res.Pushes
					}
					for i, b := range tableBudgets {
						if res.Stats.Iterations <= b {
							counts[i]++
						}
					}
				}
			}
			fmt.Fprintf(&out, "%-10s ours  ", name)
			for i, b := range tableBudgets {
				if b <= maxIt {
					fmt.Fprintf(&out, "\t%.1f", counts[i]/float64(seeds))
				}
			}
			fmt.Fprintf(&out, "\t(%.2f µs/iteration)\n%-10s thesis", 1e6*elapsed/iters, name)
			for i, b := range tableBudgets {
				if b <= maxIt {
					fmt.Fprintf(&out, "\t%d", thesisTables[coll][name][i])
				}
			}
			out.WriteString("\n")
		}
		var diffs []int
		sum := 0
		for id, v := range pushes["vanillaban"] {
			if s, ok := pushes["schokoban"][id]; ok {
				diffs = append(diffs, s-v)
				sum += s - v
			}
		}
		if len(diffs) > 0 {
			fmt.Fprintf(&out, "pushes schokoban − vanillaban (seed 0, %d levels both solve): mean %.2f; difference:count", len(diffs), float64(sum)/float64(len(diffs)))
			slices.Sort(diffs)
			for i := 0; i < len(diffs); {
				j := i
				for j < len(diffs) && diffs[j] == diffs[i] {
					j++
				}
				fmt.Fprintf(&out, " %+d:%d", diffs[i], j-i)
				i = j
			}
			out.WriteString("\n")
		}
		t.Log(out.String())
	}
}

// TestMoveTable measures 002 §V.B on Microban (155): levels solved by mcts,
// mcts-n, mcts-nd and mcts-r under a per-level time limit, and the unique
// states per tree node (Table I, the mean over runs). It is slow and runs
// only when MCTS_002 is set to the limit, for example MCTS_002=1s;
// MCTS_LEVELS picks other levels (default microban).
func TestMoveTable(t *testing.T) {
	limit, err := time.ParseDuration(os.Getenv("MCTS_002"))
	if err != nil || limit <= 0 {
		t.Skip("set MCTS_002 to a per-level time limit to run")
	}
	spec := os.Getenv("MCTS_LEVELS")
	if spec == "" {
		spec = "microban"
	}
	ls := testlevel.Resolve(t, spec)
	var out strings.Builder
	fmt.Fprintf(&out, "\n%s, %v per level, seed 0\n", spec, limit)
	for _, name := range []string{"mcts", "mcts-n", "mcts-nd", "mcts-r"} {
		solved := 0
		var ratio, iters, secs float64
		for _, l := range ls {
			res := run(t, MoveMCTS{name}, l, solver.Options{
				Budget: solver.Budget{Time: limit, Memory: 1 << 30},
			})
			if res.Status == solver.Solved {
				solved++
			}
			ratio += float64(res.Stats.UniqueStates) / float64(res.Stats.TreeSize)
			iters += float64(res.Stats.Iterations)
			secs += res.Stats.Elapsed.Seconds()
		}
		fmt.Fprintf(&out, "%-8s solved %3d of %d   unique states per node %.4f   %.2f µs/iteration\n",
			name, solved, len(ls), ratio/float64(len(ls)), 1e6*secs/iters)
	}
	t.Log(out.String())
}
