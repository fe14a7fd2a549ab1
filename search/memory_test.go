package search

import (
	"context"
	"testing"

	"soko/internal/memtest"
	"soko/internal/testlevel"
	"soko/solver"
)

// TestDFSAccountingPerNode runs dfs to tens of thousands of states and
// holds what it counts (the Stats.Bytes it stops on under --memory)
// against the heap: the live tables within 10 % of the count, and all
// that growing them allocated, copies and the recursion's candidate lists
// and stack included, within 1.5 times it. Before, each expansion
// allocated its candidate list (garbage as large as the tables), and the
// lists and the stack of a recursion thousands of levels deep were not
// counted.
func TestDFSAccountingPerNode(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:50")[0]
	const nodes = 40000
	opts := solver.Options{Budget: solver.Budget{Nodes: nodes}}
	g, _, ok, err := startGraph(context.Background(), l, opts, defaultDetectors)
	if !ok || err != nil {
		t.Fatalf("set-up: %v", err)
	}
	if err := g.setUpMoves(opts, true, false, false); err != nil {
		t.Fatal(err)
	}
	set := g.bytes()
	var s *dfs
	cost := memtest.Measure(func() func() int64 {
		s = &dfs{g: g, limit: maxDepth}
		s.search(0)
		return func() int64 { return s.heapBytes() - set }
	})
	stack := s.bytes() - s.heapBytes()
	t.Logf("counted %d and %d of stack, live %d, allocated %d and %d of stack", cost.Counted, stack, cost.Live, cost.Allocated, cost.Stack)
	if cost.Live > cost.Counted*11/10 || cost.Live < cost.Counted*9/10 {
		t.Errorf("the tables hold %d bytes, dfs counts %d", cost.Live, cost.Counted)
	}
	if cost.Allocated+cost.Stack > (cost.Counted+stack)*3/2 {
		t.Errorf("growing the tables allocated %d bytes and %d of stack, dfs counts %d", cost.Allocated, cost.Stack, cost.Counted+stack)
	}
}
