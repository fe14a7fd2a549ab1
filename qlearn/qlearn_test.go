package qlearn

import (
	"context"
	"slices"
	"testing"
	"time"

	"soko/env"
	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
)

func run(t *testing.T, s solver.Solver, l *level.Level, opts solver.Options) solver.Result {
	t.Helper()
	res, err := solver.Run(context.Background(), s, l, opts) // replays a solution with the verifier
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A corridor with a bend: Q-learning must find the pushes by exploring.
const bend = `
#######
#@$  .#
#     #
#######
`

func TestQLearnSolvesSmallLevel(t *testing.T) {
	l := testlevel.Parse(t, bend)
	res := run(t, QLearn{}, l, solver.Options{Budget: solver.Budget{Iterations: 20000}, Seed: 1})
	if res.Status != solver.Solved || res.Pushes != 3 {
		t.Fatalf("status %v, %d pushes; want solved in 3", res.Status, res.Pushes)
	}
	c := res.Stats.Counts
	if c["episodes"] != res.Stats.Iterations || c["episodes"] < 1 || c["actions"] != res.Stats.Expanded || c["qtable_entries"] != res.Stats.Stored {
		t.Fatalf("counters disagree: %v, stats %+v", c, res.Stats)
	}
	if _, ok := c["astar_actions"]; ok {
		t.Fatal("qlearn reports A* actions")
	}
}

// Q* takes its A* action; on microban 1 the first sub-goal searches from
// the start lead to the goal.
func TestQStarTakesAStar(t *testing.T) {
	l := testlevel.Resolve(t, "microban:1")[0]
	res := run(t, QStar{}, l, solver.Options{Budget: solver.Budget{Iterations: 1000}, Seed: 1})
	if res.Status != solver.Solved {
		t.Fatalf("status %v", res.Status)
	}
	c := res.Stats.Counts
	if c["astar_actions"] < 1 || c["astar_searches"] < c["astar_failures"] || c["astar_searches"] < 1 {
		t.Fatalf("counts %v: want the A* action taken", c)
	}
}

// The action counters count actions taken: a random pick of the A* action
// whose search fails is picked again, and is not an action.
func TestQStarCountsActionsTaken(t *testing.T) {
	for _, spec := range []string{"microban:1", "cbc60:2"} {
		l := testlevel.Resolve(t, spec)[0]
		res := run(t, QStar{}, l, solver.Options{Budget: solver.Budget{Iterations: 1000}, Seed: 1})
		c := res.Stats.Counts
		if c["random_actions"] > c["actions"] || c["astar_actions"] > c["actions"] {
			t.Errorf("%s: counts %v: more random or A* actions than actions", spec, c)
		}
	}
}

// Equal seeds under an iteration budget give equal runs; the budget is
// honoured exactly.
func TestDeterministic(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	for _, s := range []solver.Solver{QLearn{}, QStar{}} {
		opts := solver.Options{Budget: solver.Budget{Iterations: 300}, Seed: 7}
		a, b := run(t, s, l, opts), run(t, s, l, opts)
		if a.Status != b.Status || !slices.Equal(a.Moves, b.Moves) || a.Stats.Expanded != b.Stats.Expanded || a.Stats.Stored != b.Stats.Stored {
			t.Fatalf("%T: runs differ: %v/%v, %d/%d actions", s, a.Status, b.Status, a.Stats.Expanded, b.Stats.Expanded)
		}
		if a.Status == solver.IterationLimit && a.Stats.Iterations != 300 {
			t.Fatalf("%T: %d episodes on a budget of 300", s, a.Stats.Iterations)
		}
	}
}

// The Q-table stops at the memory budget instead of growing past it.
func TestMemoryBudget(t *testing.T) {
	l := testlevel.Open(30, 30, 4)
	const memory = 256 << 10
	for _, s := range []solver.Solver{QLearn{}, QStar{}} {
		// Random actions without loop detection over a large open board
		// meet new states at every step.
		params := map[string]string{"eps": "1", "lambda": "1", "loops": "0", "steps": "100000"}
		res := run(t, s, l, solver.Options{Budget: solver.Budget{Memory: memory, Time: 20 * time.Second}, Seed: 1, Params: params})
		if res.Status != solver.MemoryLimit || res.Stats.Bytes > memory {
			t.Fatalf("%T: status %v with %d bytes on a budget of %d", s, res.Status, res.Stats.Bytes, memory)
		}
	}
}

// A level the board says is unsolvable ends at once.
func TestUnsolvable(t *testing.T) {
	l := testlevel.Parse(t, "#######\n#@$.#$#\n#####.#\n#######\n") // the second box cannot be reached
	res := run(t, QLearn{}, l, solver.Options{Budget: solver.Budget{Time: time.Second}})
	if res.Status != solver.NoSolution {
		t.Fatalf("status %v, want no solution", res.Status)
	}
}

// One greedy episode on a corridor, worked by hand with α = 1, γ = 0.5:
// the first push brings the box closer (r = 10, next state unknown, so
// Q = 10), the second solves (r = 100, terminal, Q = 100).
func TestUpdateByHand(t *testing.T) {
	l := testlevel.Parse(t, "######\n#@$ .#\n######\n")
	cfg := config{alpha: 1, gamma: 0.5, eps: 0, lambda: 1, p: 2, steps: 10, loops: true}
	opts := solver.Options{Budget: solver.Budget{Iterations: 1}}
	e, err := env.New(env.Config{MaxSteps: cfg.steps, Deadlocks: true}, l)
	if err != nil {
		t.Fatal(err)
	}
	ln := newLearner(context.Background(), solver.NewGuard(context.Background(), opts), e, opts, cfg)
	if st, solved, err := ln.run(); !solved || err != nil {
		t.Fatalf("not solved: %v %v", st, err)
	}
	e.Reset()
	s0 := e.Key()
	e.Step(env.Action(level.Right))
	s1 := e.Key()
	right := actionKeys[level.Right]
	if q0, q1 := ln.qOf(s0^right), ln.qOf(s1^right); q0 != 10 || q1 != 100 || ln.q.Len() != 2 {
		t.Fatalf("Q(s0, right) = %v, Q(s1, right) = %v, %d entries; want 10, 100, 2", q0, q1, ln.q.Len())
	}
	// A second update of the first pair sees Q(s1) now: 10 + 0.5·100.
	if err := ln.update(s0, env.Action(level.Right), 10, ln.maxQ(s1)); err != nil || ln.qOf(s0^right) != 60 {
		t.Fatalf("second update: Q = %v (%v), want 60", ln.qOf(s0^right), err)
	}
}

// With restart=T the learner starts over every T episodes: the counters
// say how often, and a restart forgets the Q-table.
func TestRestart(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	res := run(t, QLearn{}, l, solver.Options{Budget: solver.Budget{Iterations: 95}, Seed: 1, Params: map[string]string{"restart": "10"}})
	if res.Status != solver.IterationLimit || res.Stats.Counts["restarts"] != 9 {
		t.Fatalf("status %v, %d restarts in %d episodes; want 9 in 95", res.Status, res.Stats.Counts["restarts"], res.Stats.Iterations)
	}
	once := run(t, QLearn{}, l, solver.Options{Budget: solver.Budget{Iterations: 95}, Seed: 1})
	if res.Stats.Stored >= once.Stats.Stored {
		t.Fatalf("%d Q-table entries after restarts, %d without: a restart should forget", res.Stats.Stored, once.Stats.Stored)
	}
}

// A start that settles the level is answered before any episode, under
// every budget and under none: solved with no moves when every box is on a
// goal, no solution when no player move changes anything. Before, both
// learners ran empty episodes forever: the action budget never grew, and
// only the time or episode budget could stop them. The context's deadline
// only keeps a regression from hanging the test.
func TestStartSettlesLevel(t *testing.T) {
	cases := []struct {
		name, text string
		want       solver.Status
	}{
		{"solved", "####\n#@*#\n####\n", solver.Solved},
		{"solved, player apart", "#####\n#@ *#\n#####\n", solver.Solved},
		{"no move changes anything", "########\n#@$$..##\n########\n", solver.NoSolution},
	}
	budgets := []solver.Budget{{}, {Nodes: 1000}, {Iterations: 1000}, {Time: time.Hour}}
	for _, c := range cases {
		l := testlevel.Parse(t, c.text)
		for _, s := range []solver.Solver{QLearn{}, QStar{}} {
			for _, b := range budgets {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				res, err := solver.Run(ctx, s, l, solver.Options{Budget: b, Seed: 1})
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != c.want || len(res.Moves) != 0 || res.Stats.Expanded != 0 || res.Stats.Iterations != 0 {
					t.Errorf("%s, %T, budget %+v: %v with %d moves, %d actions, %d episodes; want %v with none",
						c.name, s, b, res.Status, len(res.Moves), res.Stats.Expanded, res.Stats.Iterations, c.want)
				}
			}
		}
	}
}
