package fess

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
	"soko/solver"
)

// TestPackingMoves: on the starts of XSokoban 87 and 1, the packing-order
// moves are the full macro-moves cut down box by box to the single
// pushes, the moves onto a goal the plan has not packed and those to the
// box's farthest squares off the goals; on 87 some are left out, and some
// kept go further than one push.
func TestPackingMoves(t *testing.T) {
	for _, name := range []string{"xsokoban90:87", "xsokoban90:1"} {
		l := testlevel.Resolve(t, name)[0]
		opts := solver.Options{Budget: solver.Budget{Nodes: 10}}
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("%s: no engine: %v", name, err)
		}
		e.use(row("plan"))
		every, _, _ := e.movesOf(e.pos, nil)
		e.use(row("order"))
		kept, _, _ := e.movesOf(e.pos, nil)
		far := map[int32]int32{} // box square -> its farthest move off the goals
		for _, m := range every {
			if !e.b.IsGoal(m.To) {
				far[int32(m.From)] = max(far[int32(m.From)], m.Pushes)
			}
		}
		packed := e.plan.packed(e.pos)
		var want []Macro
		for _, m := range every {
			onGoal := e.b.IsGoal(m.To)
			if m.Pushes == 1 || onGoal && int(e.plan.rank[m.To]) >= packed || !onGoal && m.Pushes == far[int32(m.From)] {
				want = append(want, m)
			}
		}
		if len(kept) != len(want) {
			t.Fatalf("%s: %d moves kept of %d, want %d", name, len(kept), len(every), len(want))
		}
		longer := false
		for i := range kept {
			if kept[i] != want[i] {
				t.Fatalf("%s: move %d kept is %+v, want %+v", name, i, kept[i], want[i])
			}
			longer = longer || kept[i].Pushes > 1
		}
		if name == "xsokoban90:87" && (len(kept) == len(every) || !longer) {
			t.Errorf("%s: %d of %d moves kept, one longer than a push: %v", name, len(kept), len(every), longer)
		}
	}
}

// TestPackingMovesNoProof: on Microban 8 the packing-order moves leave out
// every solution, and the order strategy's search, its queue empty after
// a few expansions, gives up where plan, making every move, solves it;
// the portfolio of order alone gives up too. A start proved dead is a
// proof all the same: order alone says no solution.
func TestPackingMovesNoProof(t *testing.T) {
	l := testlevel.Resolve(t, "microban:8")[0]
	search := func(s string) solver.Result {
		opts := solver.Options{Budget: solver.Budget{Nodes: 10_000}}
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("%s: no engine: %v", s, err)
		}
		e.use(row(s))
		res, err := runEngine(e)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := search("order"); res.Status != solver.GaveUp || res.Stats.Expanded == 0 {
		t.Errorf("order: %v after %d expansions, want it to give up after some", res.Status, res.Stats.Expanded)
	}
	if res := search("plan"); res.Status != solver.Solved {
		t.Errorf("plan: %v", res.Status)
	}
	if !row("order").search.member(row("order"), nil, true).Exhaustive || !row("plan").search.member(row("plan"), nil, true).Exhaustive {
		t.Error("order's member or plan's says its no solution is not a proof")
	}
	alone := func(l *level.Level) solver.Status {
		opts := solver.Options{Budget: solver.Budget{Nodes: 10_000}, Params: map[string]string{"strategies": "order"}}
		res, err := solver.Run(context.Background(), FESS{}, l, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res.Status
	}
	if st := alone(l); st != solver.GaveUp {
		t.Errorf("order alone on %s: %v, want gave up", l.Name(), st)
	}
	// Two boxes side by side against the wall, off the goals: frozen,
	// though each alone reaches a goal.
	dead := testlevel.Parse(t, "########\n#  $$ .#\n#@    .#\n########\n")
	if st := alone(dead); st != solver.NoSolution {
		t.Errorf("order alone on a start frozen off the goals: %v, want no solution", st)
	}
}
