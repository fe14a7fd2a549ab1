package mcts

import (
	"testing"

	"soko/internal/memtest"
	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestAccountingPerNode grows each game's tree to tens of thousands of
// nodes and holds what the search counts (the Stats.Bytes it stops on
// under --memory) against the heap: the live tables within 10 % of the
// count, and all that growing them allocated, copies included, within
// 1.5 times it, so that the peak is what the count says. Before, the
// tree and the per-node tables were slices grown by copying (at every
// growth the old array stayed beside the new, 1.8 times the tree: 155 MB
// of RSS under --memory 64MiB), and the valued game's per-node values
// were not counted at all.
func TestAccountingPerNode(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:50")[0]
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	const nodes = 30000
	type game interface {
		Game
		counts() (unique, expansions, bytes int64)
	}
	games := []struct {
		name string
		new  func() game
	}{
		{"mcts", func() game { return newMoveGame(b, plainMCTS, DefaultRolloutDepth, 1, nil) }},
		{"mcts-n", func() game { return newMoveGame(b, noveltyMCTS, DefaultRolloutDepth, 1, nil) }},
		{"mcts-r", func() game { return newMoveGame(b, reversible, DefaultRolloutDepth, 1, nil) }},
		{"vanillaban", func() game { return newPushGame(b, false, nil) }},
		{"schokoban", func() game { return newPushGame(b, true, nil) }},
		{"valued", func() game { return newValueGame(b, &flatEval{}, nil) }},
	}
	for _, tc := range games {
		cost := memtest.Measure(func() func() int64 {
			g := tc.new()
			tr := NewTree(0)
			s := NewSearch(tr, g, 1)
			s.Eliminate = tc.name != "mcts" && tc.name != "mcts-n"
			for tr.Added() < nodes && s.Iterate() == Continue {
			}
			return func() int64 {
				_, _, bytes := g.counts()
				return tr.Bytes() + bytes
			}
		})
		t.Logf("%s: counted %d, live %d, allocated %d", tc.name, cost.Counted, cost.Live, cost.Allocated)
		if cost.Live > cost.Counted*11/10 || cost.Live < cost.Counted*9/10 {
			t.Errorf("%s: the tables hold %d bytes, the search counts %d", tc.name, cost.Live, cost.Counted)
		}
		if cost.Allocated > cost.Counted*3/2 {
			t.Errorf("%s: growing the tables allocated %d bytes, the search counts %d", tc.name, cost.Allocated, cost.Counted)
		}
	}
}
