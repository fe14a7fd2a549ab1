package mcts

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// checkReversal verifies an MCTS-R tree: walking the action lists from the
// root reaches, at every node, the state whose hash the node holds, every
// step on the way is legal, and the tree's statistics invariant holds after
// all the compressions.
func checkReversal(tr *Tree, g *moveGame) error {
	if err := tr.check(false, 1e-9); err != nil {
		return err
	}
	type item struct {
		x   int32
		pos *sokoban.Position
	}
	stack := []item{{Root, g.b.Start()}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.pos.HashExact() != *g.own.At(int(it.x)) {
			return fmt.Errorf("node %d: its action lists lead to a state other than its own", it.x)
		}
		for y := tr.First(it.x); y != None; y = tr.Next(y) {
			p := it.pos.Clone()
			if len(*g.acts.At(int(y))) == 0 {
				return fmt.Errorf("node %d: empty action list", y)
			}
			for _, d := range *g.acts.At(int(y)) {
				if _, _, ok := p.Step(d); !ok {
					return fmt.Errorf("node %d: illegal step in its action list", y)
				}
				step(p, d)
			}
			stack = append(stack, item{y, p})
		}
	}
	return nil
}

// TestReversibilityCompression runs MCTS-R and checks its tree after every
// iteration (002 §III.C, §III.D): compression must keep every node's action
// list a walk from its parent's state to its own.
func TestReversibilityCompression(t *testing.T) {
	var compressions int64
	for _, l := range testlevel.Resolve(t, "microban:2-6") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		g := newMoveGame(b, reversible, DefaultRolloutDepth, 5, nil)
		tr := NewTree(0)
		s := NewSearch(tr, g, 5)
		s.Eliminate = true
		for it := 0; it < 3000; it++ {
			out := s.Iterate()
			if err := checkReversal(tr, g); err != nil {
				t.Fatalf("%s, iteration %d: %v", l.Name(), it, err)
			}
			if out != Continue {
				break
			}
		}
		compressions += g.compressions
		if *g.extra.At(int(Root)) == nil && tr.at(Root).kids > 0 && g.compressions > 50 {
			t.Logf("%s: the root absorbed no states", l.Name())
		}
	}
	if compressions < 100 {
		t.Fatalf("only %d compressions: the test exercised too little", compressions)
	}
}

// TestMoveSolvers solves small levels with each configuration of 002 §V.A
// (solutions verified by solver.Run) and checks the unique-state ratios of
// Table I where they are exact: 1 for mcts-nd, and well below 1 for mcts.
func TestMoveSolvers(t *testing.T) {
	easy := testlevel.Resolve(t, "microban:2")[0]
	corridor := testlevel.Parse(t, "#######\n#@ $ .#\n#######\n")
	for _, name := range []string{"mcts", "mcts-n", "mcts-nd", "mcts-r"} {
		e, ok := solver.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		for _, l := range []*level.Level{corridor, easy} {
			res := run(t, e.New(), l, iterations(20000, 1))
			if res.Status != solver.Solved {
				t.Errorf("%s: %s: %v after %d iterations", name, l.Name(), res.Status, res.Stats.Iterations)
			}
		}
	}
	hard := testlevel.Resolve(t, "microban:9")[0]
	nd := run(t, MoveMCTS{"mcts-nd"}, hard, iterations(3000, 1))
	if nd.Stats.UniqueStates != nd.Stats.TreeSize {
		t.Errorf("mcts-nd: %d unique states, %d nodes; want equal", nd.Stats.UniqueStates, nd.Stats.TreeSize)
	}
	plain := run(t, MoveMCTS{"mcts"}, hard, iterations(3000, 1))
	if r := float64(plain.Stats.UniqueStates) / float64(plain.Stats.TreeSize); r > 0.5 {
		t.Errorf("mcts: %.2f unique states per node; duplicates expected", r)
	}
	if _, err := (MoveMCTS{"mcts-x"}).Solve(t.Context(), hard, solver.Options{}); err == nil {
		t.Error("an unknown variant was accepted")
	}
}

// TestMCTSRBeatsBaselines is a quick check of 002's ordering on the first
// Microban levels at a fixed number of iterations: mcts-r solves more than
// mcts-nd, which solves at least as many as mcts.
func TestMCTSRBeatsBaselines(t *testing.T) {
	ls := testlevel.Resolve(t, "microban:1-10")
	count := func(name string) int {
		solved := 0
		for _, l := range ls {
			if run(t, MoveMCTS{name}, l, iterations(5000, 1)).Status == solver.Solved {
				solved++
			}
		}
		return solved
	}
	r, nd, plain := count("mcts-r"), count("mcts-nd"), count("mcts")
	t.Logf("microban 1-10 at 5000 iterations: mcts-r %d, mcts-nd %d, mcts %d", r, nd, plain)
	if r <= nd || nd < plain {
		t.Errorf("mcts-r %d, mcts-nd %d, mcts %d: 002's ordering does not hold", r, nd, plain)
	}
}

// TestMoveDeterministic: equal seeds give identical runs.
func TestMoveDeterministic(t *testing.T) {
	l := testlevel.Resolve(t, "microban:7")[0]
	for _, name := range []string{"mcts-n", "mcts-r"} {
		a := run(t, MoveMCTS{name}, l, iterations(4000, 9))
		b := run(t, MoveMCTS{name}, l, iterations(4000, 9))
		a.Stats.Elapsed, b.Stats.Elapsed = 0, 0
		if a.Status != b.Status || !reflect.DeepEqual(a.Stats, b.Stats) || !slices.Equal(a.Moves, b.Moves) {
			t.Errorf("%s: two runs with seed 9 differ: %+v / %+v", name, a.Stats, b.Stats)
		}
	}
}

// TestNoDupElimination: with eliminate=1 an mcts-nd node whose steps all
// lead to states already in the tree is deleted instead of rolled out from
// again and again. On Microban 3 that is the difference between solving it
// in a few thousand iterations and not at all; on a level without solution
// the tree empties and the search says so.
func TestNoDupElimination(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	opts := func(eliminate string, n int64) solver.Options {
		o := iterations(n, 1)
		o.Params = map[string]string{"eliminate": eliminate}
		return o
	}
	if res := run(t, MoveMCTS{"mcts-nd"}, l, opts("1", 20000)); res.Status != solver.Solved {
		t.Errorf("mcts-nd eliminate=1: %v after %d iterations", res.Status, res.Stats.Iterations)
	}
	if res := run(t, MoveMCTS{"mcts-nd"}, l, opts("0", 20000)); res.Status != solver.IterationLimit {
		t.Errorf("mcts-nd eliminate=0: %v after %d iterations; its dead-end leaves should hold it back", res.Status, res.Stats.Iterations)
	}
	for _, text := range unsolvable {
		res := run(t, MoveMCTS{"mcts-nd"}, testlevel.Parse(t, text), opts("1", 100000))
		if res.Status != solver.NoSolution {
			t.Errorf("mcts-nd eliminate=1 on\n%s: %v after %d iterations, want no solution", text, res.Status, res.Stats.Iterations)
		}
	}
}

// TestRolloutStopsAndCounts: a rollout asks whether to stop every
// rolloutCheck steps and ends when told, and its buffers count in the
// game's memory.
func TestRolloutStopsAndCounts(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:1")[0] // too hard to solve by a random walk
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"mcts", "mcts-n", "mcts-r"} {
		asked := 0
		g := newMoveGame(b, moveVariants[v], MaxRolloutDepth, 1, func() bool { asked++; return asked == 3 })
		tr := NewTree(0)
		before := g.bytes()
		if _, found := g.Evaluate(tr, Root); found {
			t.Fatalf("%s: a random walk solved %s", v, l.Name())
		}
		if asked != 3 || len(g.tail) != 3*rolloutCheck-1 {
			t.Errorf("%s: asked %d times, rollout of %d steps; want 3 and %d", v, asked, len(g.tail), 3*rolloutCheck-1)
		}
		if grown := g.bytes() - before; grown < int64(len(g.tail)) {
			t.Errorf("%s: a rollout of %d steps added %d bytes", v, len(g.tail), grown)
		}
	}
}

// TestSolveRefusesBadParams: a library caller that skips
// solver.CheckParams gets an error from Solve, not a panic or a run
// without bounds.
func TestSolveRefusesBadParams(t *testing.T) {
	l := testlevel.Resolve(t, "microban:1")[0]
	for _, tt := range []struct {
		s      solver.Solver
		params map[string]string
	}{
		{MoveMCTS{"mcts-r"}, map[string]string{"c": "NaN"}},
		{MoveMCTS{"mcts"}, map[string]string{"depth": "100000000000"}},
		{MoveMCTS{"mcts-nd"}, map[string]string{"eliminate": "2"}},
		{Vanillaban{}, map[string]string{"c": "-Inf"}},
		{Vanillaban{}, map[string]string{"cycles": "-1"}},
		{Schokoban{}, map[string]string{"c": "abc"}},
	} {
		opts := iterations(10, 1)
		opts.Params = tt.params
		if _, err := solver.Run(t.Context(), tt.s, l, opts); err == nil || !strings.Contains(err.Error(), "parameter") {
			t.Errorf("%T %v: %v", tt.s, tt.params, err)
		}
	}
}
