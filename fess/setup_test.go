package fess

import (
	"context"
	"slices"
	"testing"

	"soko/deadlock"
	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestLevelTablesShared: the engines of one run take the plan, the
// deadlock table and the hotspot table one engine built, the same as an
// engine builds alone, each hotspot table with scratch space of its own;
// a build the builder's context cut short is not kept, and the next
// engine builds it.
func TestLevelTablesShared(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:2")[0]
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lt := &levelTables{}
	cut, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := lt.planOf(cut, b); err == nil {
		t.Fatal("a plan built under a cancelled context: no error")
	}
	if lt.plan.ok {
		t.Fatal("a plan cut short was kept")
	}
	p1, err := lt.planOf(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := lt.planOf(ctx, b)
	alone, _ := (*levelTables)(nil).planOf(ctx, b)
	if p1 != p2 || !slices.Equal(p1.order, alone.order) || !slices.Equal(p1.zone, alone.zone) {
		t.Errorf("plans: shared %p and %p, order %v, alone %v", p1, p2, p1.order, alone.order)
	}
	t1, err := lt.tableOf(ctx, b, deadlock.DefaultTableLimits)
	if err != nil || t1 == nil {
		t.Fatal(t1, err)
	}
	if t2, _ := lt.tableOf(ctx, b, deadlock.DefaultTableLimits); t2 != t1 {
		t.Error("the second engine built its own deadlock table")
	}
	h1, err := lt.hotspotsOf(ctx, b)
	if err != nil || h1 == nil {
		t.Fatal(h1, err)
	}
	h2, _ := lt.hotspotsOf(ctx, b)
	if &h1.blocked[0] != &h2.blocked[0] || &h1.count[0] == &h2.count[0] || &h1.anyBox[0] == &h2.anyBox[0] {
		t.Error("hotspot tables: want the table shared and the scratch space apart")
	}
	own, _ := newHotspots(ctx, b)
	if !slices.Equal(own.blocked, h1.blocked) {
		t.Error("the shared hotspot table differs from one built alone")
	}
}
