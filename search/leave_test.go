package search

import (
	"context"
	"strings"
	"testing"
	"time"

	"soko/deadlock"
	"soko/internal/stategraph"
	"soko/internal/testlevel"
	"soko/sokoban"
	"soko/solver"
)

// TestLeaveBoundIsAdmissible builds the complete push graphs of small
// Microban levels and checks A*'s bound with the boxes that must leave
// their goals (pushGraph.leaveBound) on every state, from scratch and
// repaired from the parent's matching: never above the state's distance
// in pushes to a solved state, never below the matching, and above it on
// some states. Frozen goals never call a solvable state dead.
func TestLeaveBoundIsAdmissible(t *testing.T) {
	const limit = 100000
	levels, raised := 0, 0
	for _, l := range testlevel.Resolve(t, "microban:1-60") {
		g, err := newPushGraph(context.Background(), l, solver.Options{}, defaultDetectors)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := g.ready(); !ok {
			continue
		}
		sg := stategraph.Build(g.board, nil, limit)
		if sg == nil {
			continue
		}
		levels++
		lb, err := g.matching()
		if err != nil || lb == nil {
			t.Fatal(err)
		}
		g.frozen = deadlock.NewFrozenGoals(g.board, g.dead)
		leave := g.leaveBound(lb)
		check := func(p *sokoban.Position, h int32, ok bool, d int32, how string) {
			t.Helper()
			if g.frozen.Dead(p) {
				if d >= 0 {
					t.Fatalf("%s: frozen goals call a state %d pushes from solved dead:\n%s", l.Name(), d, strings.Join(p.Rows(), "\n"))
				}
				return
			}
			if !ok {
				return
			}
			hl, _ := leave(p, h)
			if hl < h {
				t.Fatalf("%s: %s bound %d with leaving boxes, %d without", l.Name(), how, hl, h)
			}
			if d >= 0 && hl > d {
				t.Fatalf("%s: %s bound %d (matching %d) on a state %d pushes from solved:\n%s", l.Name(), how, hl, h, d, strings.Join(p.Rows(), "\n"))
			}
			if hl > h {
				raised++
			}
		}
		p := g.board.Start()
		var pushes []sokoban.Push
		for id, key := range sg.Keys {
			p.Unpack(key)
			h, ok := lb.SetBase(p, uint32(id))
			check(p, h, ok, sg.Dist[id], "base")
			pushes = p.Pushes(pushes[:0], nil)
			for k, m := range pushes {
				p.Apply(m)
				h, ok := lb.Child(p)
				check(p, h, ok, sg.Dist[sg.Edges[id][k]], "repaired")
				p.Undo(m)
			}
		}
	}
	t.Logf("%d levels: the bound raised on %d states", levels, raised)
	if levels < 10 || raised == 0 {
		t.Fatalf("%d levels checked, bound raised on %d states", levels, raised)
	}
}

// TestAStarVariantsAgreeWithBFS solves levels where A* once went wrong
// with A*'s variants: without frozen goals, with parked boxes last, that
// without symmetry, and without the corral checks at expansion. All find
// BFS's push count.
func TestAStarVariantsAgreeWithBFS(t *testing.T) {
	variants := []map[string]string{{"frozengoals": "0"}, {"parkedlast": "1"}, {"symmetry": "0", "parkedlast": "1"}, {"expandcorrals": "0"}}
	for _, l := range testlevel.Resolve(t, "microban:1-12,96,117,122,138,143") {
		want := run(t, BFS{}, l, solver.Budget{Time: time.Minute})
		for _, params := range variants {
			res, err := solver.Run(context.Background(), AStar{}, l, solver.Options{Budget: solver.Budget{Time: time.Minute}, Params: params})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != solver.Solved || res.Pushes != want.Pushes {
				t.Errorf("%s %v: %v in %d pushes, want %d", l.Name(), params, res.Status, res.Pushes, want.Pushes)
			}
		}
	}
}

// TestExpandCorrals checks that the corral checks made when A* expands a
// state drop states on Microban 1–60 and never change the push count: the
// states they drop are dead, so A* with them finds what it finds without.
func TestExpandCorrals(t *testing.T) {
	dropped := int64(0)
	for _, l := range testlevel.Resolve(t, "microban:1-60") {
		var res [2]solver.Result
		for i, on := range []string{"0", "1"} {
			r, err := solver.Run(context.Background(), AStar{}, l, solver.Options{Budget: solver.Budget{Time: time.Minute}, Params: map[string]string{"expandcorrals": on}})
			if err != nil {
				t.Fatal(err)
			}
			res[i] = r
		}
		if res[0].Status != solver.Solved || res[1].Status != solver.Solved || res[0].Pushes != res[1].Pushes {
			t.Errorf("%s: %v in %d pushes without the checks, %v in %d with them", l.Name(), res[0].Status, res[0].Pushes, res[1].Status, res[1].Pushes)
		}
		if res[0].Stats.Counts[corralDeadCount] != 0 {
			t.Errorf("%s: %d states dropped with the checks off", l.Name(), res[0].Stats.Counts[corralDeadCount])
		}
		dropped += res[1].Stats.Counts[corralDeadCount]
	}
	t.Logf("%d states dropped", dropped)
	if dropped == 0 {
		t.Fatal("the corral checks dropped no state on Microban 1-60")
	}
}
