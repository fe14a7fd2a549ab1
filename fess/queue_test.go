package fess

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/solver"
)

// TestQueueBytes: the cell queue's bytes, kept as its heaps grow, equal
// the sum over the cells worked out afresh, after a search that left
// hundreds of cells.
func TestQueueBytes(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:28")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 3000}}
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil)
	if err != nil || e == nil {
		t.Fatalf("no engine: %v", err)
	}
	e.use(row("plan"))
	if res, err := e.run(); err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("run: %v, %v", res.Status, err)
	}
	q := &e.queue
	want := int64(len(q.cells)) * cellBytes
	for i := range q.cells {
		want += entryBytes * int64(cap(q.cells[i].wait))
	}
	if len(q.cells) < 100 {
		t.Errorf("%d cells: the test wants a search that leaves hundreds", len(q.cells))
	}
	if got := q.bytes(); got != want {
		t.Errorf("bytes %d, the cells' heaps sum to %d", got, want)
	}
}
