package fess

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"soko/heuristic"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// TestPullMacroMovesMatchPulls checks the pull macro-moves against the
// obvious version: a breadth-first search over single pulls of one box,
// the others staying put. Both must reach the same positions (boxes and
// player region) with the same fewest pulls, from the solved position of
// small levels with the player in each of its areas and from positions a
// few pulls away. The canonical player square and the change in the
// number of free areas must be those flood fills find; the pushes that undo each move must be legal and lead
// back to the position the move started from.
func TestPullMacroMovesMatchPulls(t *testing.T) {
	ls := append(testlevel.Resolve(t, "microban:1-30"), testlevel.Resolve(t, "xsokoban90:1-3")...)
	for _, l := range ls {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		g := newMacroGen(b, nil)
		feat := newFeaturer(b, nil, nil, nil)
		for _, p := range nearSolved(b, 30) {
			start := string(p.Pack(nil))
			before, _ := feat.regions(p)
			for _, box := range slices.Clone(p.BoxSquares()) {
				want := pullClosure(p, box)
				got := map[string]int32{}
				g.place(p.BoxSquares())
				moves := g.generatePull(p, box, nil)
				g.lift(p.BoxSquares())
				for _, m := range moves {
					checkMove(t, l.Name(), feat, p, m, before, got)
					q := p.Clone()
					q.Relocate(m.From, m.To, b.Next(m.To, m.Side))
					g.place(p.BoxSquares())
					undo := g.unpull(p, m)
					g.lift(p.BoxSquares())
					for _, push := range undo {
						if !q.CanPush(push) {
							t.Fatalf("%s: box %d to %d: illegal push undoing the pulls", l.Name(), box, m.To)
						}
						q.Apply(push)
					}
					if int32(len(undo)) != m.Pushes || string(q.Pack(nil)) != start {
						t.Errorf("%s: box %d to %d: %d pushes do not undo the move (%d pulls)", l.Name(), box, m.To, len(undo), m.Pushes)
					}
				}
				if !maps.Equal(got, want) {
					t.Errorf("%s: box %d: pull macro-moves reach %d positions, single pulls %d", l.Name(), box, len(got), len(want))
				}
			}
		}
	}
}

// pulls returns the positions one pull of the box on box reaches from p,
// with the box's new square: the player, on a neighbour of the box he can
// walk to, steps back onto a free square and draws the box after him.
func pulls(p *sokoban.Position, box sokoban.Square) (out []*sokoban.Position, to []sokoban.Square) {
	b := p.Board()
	for d := range sokoban.Dirs {
		n := b.Next(box, d)
		if n == sokoban.None || p.HasBox(n) || !p.Reachable(n) {
			continue
		}
		back := b.Next(n, d)
		if back == sokoban.None || p.HasBox(back) {
			continue
		}
		q := p.Clone()
		q.Relocate(box, n, back)
		out, to = append(out, q), append(to, n)
	}
	return out, to
}

// pullClosure returns the positions (packed) that single pulls of the box
// on box reach from p, with their fewest pulls, p itself left out.
func pullClosure(p *sokoban.Position, box sokoban.Square) map[string]int32 {
	type item struct {
		p   *sokoban.Position
		box sokoban.Square
		n   int32
	}
	start := string(p.Pack(nil))
	seen := map[string]int32{start: 0}
	queue := []item{{p.Clone(), box, 0}}
	for h := 0; h < len(queue); h++ {
		it := queue[h]
		next, to := pulls(it.p, it.box)
		for i, q := range next {
			if k := string(q.Pack(nil)); !has(seen, k) {
				seen[k] = it.n + 1
				queue = append(queue, item{q, to[i], it.n + 1})
			}
		}
	}
	delete(seen, start)
	return seen
}

func has(m map[string]int32, k string) bool {
	_, ok := m[k]
	return ok
}

// nearSolved returns up to limit positions: the solved position with the
// player in each area of free squares, then positions single pulls reach
// from them, breadth first.
func nearSolved(b *sokoban.Board, limit int) []*sokoban.Position {
	var out []*sokoban.Position
	seen := map[string]bool{}
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		p := b.PositionOf(b.Goals(), s)
		if p.HasBox(s) {
			continue
		}
		if k := string(p.Pack(nil)); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	for i := 0; i < len(out) && len(out) < limit; i++ {
		for _, box := range out[i].BoxSquares() {
			next, _ := pulls(out[i], box)
			for _, q := range next {
				if k := string(q.Pack(nil)); !seen[k] {
					seen[k] = true
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// TestBackwardMeets: with the backward search on, plan FESS solves the
// first 40 Microban levels, solver.Run verifies every solution, and on
// some of them the solution is spliced from the two halves.
func TestBackwardMeets(t *testing.T) {
	e, _ := solver.Lookup("fess")
	met := 0
	for _, l := range testlevel.Resolve(t, "microban:1-40") {
		opts := solver.Options{Budget: solver.Budget{Nodes: 200_000, Time: time.Minute},
			Params: map[string]string{"strategies": "plan", "backward": "0.5"}}
		res, err := solver.Run(context.Background(), e.New(), l, opts)
		if err != nil {
			t.Fatalf("%s: %v", l.Name(), err)
		}
		if res.Status != solver.Solved {
			t.Errorf("%s: %v after %d expansions", l.Name(), res.Status, res.Stats.Expanded)
		}
		met += int(res.Stats.Counts["plan.met"])
	}
	if met == 0 {
		t.Error("the searches never met")
	}
}

// backwardOf returns an engine of level l without a budget and a backward
// search of it.
func backwardOf(t *testing.T, l *level.Level) (*engine, *backward) {
	t.Helper()
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), solver.Options{}), solver.Options{}, nil, nil)
	if err != nil || e == nil {
		t.Fatalf("%s: no engine: %v", l.Name(), err)
	}
	bk, err := newBackward(context.Background(), e, false)
	if err != nil {
		t.Fatal(err)
	}
	return e, bk
}

// TestBackwardTouchHashes: the hashes a backward step loads the store's
// slots for are those add interns the moves' positions under, so the
// loads are the ones add then makes.
func TestBackwardTouchHashes(t *testing.T) {
	checked := 0
	for _, l := range testlevel.Resolve(t, "xsokoban90:1,41,44") {
		e, bk := backwardOf(t, l)
		for range 30 {
			if _, more := bk.step(nil); !more {
				break
			}
			if len(bk.hashes) != len(bk.moves) {
				t.Fatalf("%s: %d hashes for %d moves", l.Name(), len(bk.hashes), len(bk.moves))
			}
			for i, m := range bk.moves {
				if _, h := e.tree.keys.pack(nil, bk.sorted, m.From, m.To, m.canon); h != bk.hashes[i] {
					t.Fatalf("%s: move %d (%d->%d): touched hash %x, interned under %x", l.Name(), i, m.From, m.To, bk.hashes[i], h)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no moves to check")
	}
}

// TestStartMatcher checks the backward search's matching of boxes to start
// squares against the least-cost matching's verdict (heuristic
// PushMatching: a finite cost exists), on the positions a backward search
// stores and on each of them with one box moved to every other free
// square: prepare on the position, child on the move.
func TestStartMatcher(t *testing.T) {
	checked, infeasible := 0, 0
	levels := append(testlevel.Resolve(t, "microban:1-30"), testlevel.Resolve(t, "xsokoban90:1,44")...)
	for _, l := range levels {
		e, bk := backwardOf(t, l)
		b := e.b
		for range 40 {
			if _, more := bk.step(nil); !more {
				break
			}
		}
		rows := make([][]int32, 0)
		for _, s := range b.Start().BoxSquares() {
			g := newMacroGen(b, nil)
			row := make([]int32, b.N)
			for k := range row {
				row[k] = sokoban.Unreachable
			}
			g.split(s)
			g.search(s, func(sokoban.Square) bool { return true }, false)
			for _, st := range g.queue {
				row[st/4] = min(row[st/4], g.dist[st])
			}
			rows = append(rows, row)
		}
		want := heuristic.NewPushMatching(b, rows)
		m := newStartMatcher(b.N, rows)
		p := b.Start()
		for id := 0; id < bk.store.Len() && id < 300; id++ {
			p.Unpack(bk.store.Key(uint32(id)))
			boxes := slices.Clone(p.BoxSquares())
			_, ok := want.Bound(p)
			if got := m.prepare(boxes); got != ok {
				t.Fatalf("%s: prepare %v, matching %v on boxes %v", l.Name(), got, ok, boxes)
			}
			checked++
			if !ok {
				infeasible++
				continue
			}
			for _, from := range boxes {
				for to := sokoban.Square(0); int(to) < b.N; to++ {
					if p.HasBox(to) {
						continue
					}
					player := p.Player()
					p.Relocate(from, to, player)
					_, ok := want.Bound(p)
					p.Relocate(to, from, player)
					if got := m.child(from, to); got != ok {
						t.Fatalf("%s: child %d->%d %v, matching %v", l.Name(), from, to, got, ok)
					}
					checked++
					if !ok {
						infeasible++
					}
				}
			}
		}
	}
	if infeasible == 0 || infeasible == checked {
		t.Fatalf("%d of %d checks infeasible: the test does not tell the answers apart", infeasible, checked)
	}
}

// TestBackwardStepStops: a step of the backward search whose stop says to
// give up ends within the expansion (one takes seconds on the largest
// boards), storing fewer children than the whole step, and reports that
// the search is not to go on.
func TestBackwardStepStops(t *testing.T) {
	l := testlevel.Open(40, 40, 2*checkBoxes)
	stored := func(stop func() bool) (int, bool) {
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), solver.Options{}), solver.Options{}, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("no engine: %v", err)
		}
		bk, err := newBackward(context.Background(), e, false)
		if err != nil {
			t.Fatal(err)
		}
		_, more := bk.step(stop)
		return bk.store.Len(), more
	}
	whole, more := stored(nil)
	if !more {
		t.Fatal("the whole step ended the search")
	}
	part, more := stored(func() bool { return true })
	if more || part >= whole {
		t.Errorf("stopped step: %d positions stored (the whole step %d), more %v; want fewer and false", part, whole, more)
	}
}

// TestPathsTakeTheShorterWay checks the solution paths of both searches
// after a while on a level with many transpositions: every node's path
// (the forward tree's pathStep links, the backward parents) replays to
// its position, pushes no more than the node's depth, and its step comes
// from a node of smaller depth, so no path loops. The forward tree's paths
// must together push fewer than its search parents' paths, and no node's
// more; the backward descents must solve the level from every node, push
// no more than the node's depth, and together fewer than the parents'
// paths.
func TestPathsTakeTheShorterWay(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	opts := solver.Options{Budget: solver.Budget{Nodes: 1_000}}
	search := func(s string) *engine {
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("%s: no engine: %v", s, err)
		}
		e.use(row(s))
		if res, err := runEngine(e); err != nil || res.Status != solver.NodeLimit {
			t.Fatalf("%s: %v %v, want the node limit", s, res.Status, err)
		}
		return e
	}
	pe := search("opener")
	var short, long int
	for id := uint32(0); int(id) < pe.tree.nodes.Len(); id++ {
		pushes, err := pe.pushesTo(id)
		if err != nil {
			t.Fatal(err)
		}
		if step := pe.tree.pathStep(id); step.parent != noParent && pe.tree.at(step.parent).depth >= pe.tree.at(id).depth {
			t.Fatalf("forward node %d: its path's step comes from depth %d, it is at %d", id, pe.tree.at(step.parent).depth, pe.tree.at(id).depth)
		}
		if int32(len(pushes)) > pe.tree.at(id).depth {
			t.Fatalf("forward node %d: path of %d pushes, depth %d", id, len(pushes), pe.tree.at(id).depth)
		}
		checkReaches(t, pe, pushes, pe.tree.store.Key(id))
		n := 0
		for a := id; pe.tree.at(a).parent != noParent; a = pe.tree.at(a).parent {
			n += int(pe.tree.at(a).move.Pushes)
		}
		if len(pushes) > n {
			t.Fatalf("forward node %d: path of %d pushes, its search parents' %d", id, len(pushes), n)
		}
		short += len(pushes)
		long += n
	}
	if short >= long {
		t.Errorf("forward paths push %d in all, search parents' paths %d: want fewer", short, long)
	}
	bk := search("back").back
	var paths, descents int
	for id := uint32(0); int(id) < bk.nodes.Len(); id++ {
		nd := bk.at(id)
		if nd.parent != noParent && bk.at(nd.parent).depth >= nd.depth {
			t.Fatalf("backward node %d: parent at depth %d, it at %d", id, bk.at(nd.parent).depth, nd.depth)
		}
		tail := bk.pushes(id)
		if (tail == nil && nd.parent != noParent) || int32(len(tail)) > nd.depth {
			t.Fatalf("backward node %d: path of %d pushes (nil: lost), depth %d", id, len(tail), nd.depth)
		}
		checkSolves(t, bk, id, tail, "path")
		if id%8 != 0 {
			continue // the descents of one node in eight: each generates moves all the way
		}
		down := bk.descend(bk.e.gen, id)
		if (down == nil && nd.parent != noParent) || int32(len(down)) > nd.depth {
			t.Fatalf("backward node %d: descent of %d pushes (nil: lost), its path %d, depth %d", id, len(down), len(tail), nd.depth)
		}
		checkSolves(t, bk, id, down, "descent")
		paths += len(tail)
		descents += len(down)
	}
	if descents >= paths {
		t.Errorf("backward paths push %d in all, descents %d: want fewer", paths, descents)
	}
}

// checkSolves checks that pushes (the node's what) solve the level from
// the position of backward node id.
func checkSolves(t *testing.T, bk *backward, id uint32, pushes []sokoban.Push, what string) {
	t.Helper()
	p := bk.e.b.Start()
	p.Unpack(bk.store.Key(id))
	for i, m := range pushes {
		if !p.CanPush(m) {
			t.Fatalf("backward node %d: push %d of %d of its %s is illegal", id, i, len(pushes), what)
		}
		p.Apply(m)
	}
	if !p.Solved() {
		t.Fatalf("backward node %d: its %s does not solve the level", id, what)
	}
}

// checkReaches checks that pushes from the start reach the position packed in key.
func checkReaches(t *testing.T, e *engine, pushes []sokoban.Push, key []byte) {
	t.Helper()
	p := e.b.Start()
	for i, m := range pushes {
		if !p.CanPush(m) {
			t.Fatalf("push %d of %d is illegal", i, len(pushes))
		}
		p.Apply(m)
	}
	q := e.b.Start()
	q.Unpack(key)
	if !slices.Equal(slices.Sorted(slices.Values(p.BoxSquares())), slices.Sorted(slices.Values(q.BoxSquares()))) {
		t.Fatalf("the path ends with boxes on %v, the node has %v", p.BoxSquares(), q.BoxSquares())
	}
}
