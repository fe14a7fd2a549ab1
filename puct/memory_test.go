package puct

import (
	"context"
	"testing"

	"soko/internal/memtest"
	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestAccountingPerNode grows a search's tree to tens of thousands of
// nodes and holds what it counts (the Stats.Bytes it stops on under
// --memory) against the heap: the live tree and store within 10 % of the
// count, and all that growing them allocated, copies included, within 1.5
// times it. Before, the tree was one slice grown by copying, its old array
// beside the new at every growth (104 MB of RSS under --memory 64MiB).
func TestAccountingPerNode(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:50")[0]
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bd, err := newBoard(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	const nodes = 30000
	cost := memtest.Measure(func() func() int64 {
		s := newSearch(ctx, bd, nil, DefaultC, b.Start())
		for s.store.Len() < nodes && s.Iterate() == Going {
		}
		return s.bytes
	})
	t.Logf("counted %d, live %d, allocated %d", cost.Counted, cost.Live, cost.Allocated)
	if cost.Live > cost.Counted*11/10 || cost.Live < cost.Counted*9/10 {
		t.Errorf("the tables hold %d bytes, the search counts %d", cost.Live, cost.Counted)
	}
	if cost.Allocated > cost.Counted*3/2 {
		t.Errorf("growing the tables allocated %d bytes, the search counts %d", cost.Allocated, cost.Counted)
	}
}
