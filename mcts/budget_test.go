package mcts

import (
	"context"
	"sync"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/sokoban"
	"soko/solver"
)

// looksCtx is a context that ends at its k-th look: the k-th call of Done
// returns a closed channel, and Err says Canceled from then on. It makes
// "the solver looks at its context often" a count, not a timing.
type looksCtx struct {
	context.Context
	mu    sync.Mutex
	k     int
	looks int
	done  chan struct{}
}

func endAtLook(k int) *looksCtx {
	return &looksCtx{Context: context.Background(), k: k, done: make(chan struct{})}
}

func (c *looksCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looks++
	if c.looks == c.k {
		close(c.done)
	}
	return c.done
}

func (c *looksCtx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

// flatEval is an Evaluator that values every position by its reward.
type flatEval struct {
	queued []float64
	added  int
}

func (e *flatEval) Add(_ *sokoban.Position, reward float64) {
	e.queued = append(e.queued, reward)
	e.added++
}

func (e *flatEval) Flush(dst []float64) []float64 {
	dst = append(dst, e.queued...)
	e.queued = e.queued[:0]
	return dst
}

// TestLooksAtBudgetDuringExpansion: on a board whose root has hundreds of
// pushes, the push-level solvers look at their context while they set up
// and every few pushes of an expansion, not only between iterations: a
// context that ends at its k-th look stops them with Cancelled before they
// have added more than expandCheck nodes per look. Before, the root's
// first expansion added all its children before the second look (and, on
// boards with hundreds of boxes, set-up and that expansion ran past the
// time limit). The move-level solvers, whose expansions add four nodes at
// most, stop with Cancelled too.
func TestLooksAtBudgetDuringExpansion(t *testing.T) {
	l := testlevel.Open(40, 40, 100) // 400 pushes from the start
	type solve func(ctx context.Context) (solver.Result, error)
	registered := func(name string) solve {
		e, ok := solver.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		return func(ctx context.Context) (solver.Result, error) {
			return e.New().Solve(ctx, l, solver.Options{Seed: 1})
		}
	}
	for _, c := range []struct {
		name    string
		solve   solve
		bounded bool // adds at most expandCheck nodes per look
	}{
		{"vanillaban", registered("vanillaban"), true},
		{"schokoban", registered("schokoban"), true},
		{"valued", func(ctx context.Context) (solver.Result, error) {
			return SolveValued(ctx, l, solver.Options{Seed: 1}, DefaultPushC, &flatEval{})
		}, true},
		{"mcts", registered("mcts"), false},
		{"mcts-n", registered("mcts-n"), false},
		{"mcts-nd", registered("mcts-nd"), false},
		{"mcts-r", registered("mcts-r"), false},
	} {
		for k := 1; k <= 12; k++ {
			res, err := c.solve(endAtLook(k))
			if err != nil {
				t.Fatalf("%s, context ending at look %d: %v", c.name, k, err)
			}
			if res.Status != solver.Cancelled || c.bounded && res.Stats.Generated > int64(k*expandCheck) {
				t.Errorf("%s, context ending at look %d: %v with %d nodes added, want cancelled with at most %d",
					c.name, k, res.Status, res.Stats.Generated, k*expandCheck)
			}
		}
	}
}

// TestStoppedExpansionKeepsTree: an expansion that stops on its budget
// ends the iteration with Stopped, and the half-expanded node is not
// eliminated, whatever children it got: the search ends having proved
// nothing.
func TestStoppedExpansionKeepsTree(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Open(40, 40, 100))
	if err != nil {
		t.Fatal(err)
	}
	for _, stopAt := range []int{1, 2, 5} {
		g := newPushGame(b, true, nil)
		asked := 0
		g.stop = func() bool { asked++; return asked >= stopAt }
		tr := NewTree(0)
		s := NewSearch(tr, g, 1)
		s.Eliminate = true
		out := Continue
		for it := 0; it < 3 && out == Continue; it++ {
			out = s.Iterate()
		}
		if out != Stopped || asked != stopAt || tr.Len() > 1+stopAt*expandCheck {
			t.Errorf("stop at look %d: %v with %d nodes after %d looks, want Stopped with at most %d",
				stopAt, out, tr.Len(), asked, 1+stopAt*expandCheck)
		}
	}
}

// TestStoppedValuesStopPromptly: with an Evaluator, the expansion also
// looks at the budget before each child's matching reward (hundreds of
// boxes each), not only while it pushes: stopped a few looks after the
// pushes are done, it has queued a few children, not all.
func TestStoppedValuesStopPromptly(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Open(40, 40, 100))
	if err != nil {
		t.Fatal(err)
	}
	e := &flatEval{}
	g := newValueGame(b, e, nil)
	pushes := len(g.pos.Pushes(nil, g.dead))
	asked, stopAt := 0, pushes/expandCheck+4 // four looks after the last one among the pushes
	g.stop = func() bool { asked++; return asked >= stopAt }
	tr := NewTree(0)
	s := NewSearch(tr, g, 1)
	s.Eliminate = true
	if out := s.Iterate(); out != Continue { // evaluates the root
		t.Fatalf("first iteration: %v", out)
	}
	before := e.added
	if out := s.Iterate(); out != Stopped || e.added-before > 4 {
		t.Errorf("expanding the root's %d pushes, stopped at look %d: %v with %d values asked for, want Stopped with at most 4",
			pushes, stopAt, out, e.added-before)
	}
}

// TestNodeLimitEndsAStuckTree: mcts-nd's tree on Microban 1 stops growing
// (its leaves' steps all lead into the tree) long before 20,000
// expansions; the iterations that roll out from such a leaf again count
// against the node limit, so the run ends on it, where it ran for ever.
func TestNodeLimitEndsAStuckTree(t *testing.T) {
	l := testlevel.Resolve(t, "microban:1")[0]
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := solver.Run(ctx, MoveMCTS{"mcts-nd"}, l, solver.Options{Budget: solver.Budget{Nodes: 20000}, Seed: 1})
	if err != nil || res.Status != solver.NodeLimit || res.Stats.Expanded+res.Stats.Counts[revisitsCount] != 20000 {
		t.Errorf("%v after %d expansions and %d revisits, %v; want the node limit after 20,000 of both", res.Status, res.Stats.Expanded, res.Stats.Counts[revisitsCount], err)
	}
}
