package fess

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"soko/deadlock"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// TestSolvesMicroban: every one of the first 60 Microban levels is solved
// by plan FESS alone within a node budget, and solver.Run has verified each
// solution.
func TestSolvesMicroban(t *testing.T) {
	e, _ := solver.Lookup("fess")
	for _, l := range testlevel.Resolve(t, "microban:1-60") {
		opts := solver.Options{Budget: solver.Budget{Nodes: 200_000, Time: time.Minute}, Params: map[string]string{"strategies": "plan"}}
		res, err := solver.Run(context.Background(), e.New(), l, opts)
		if err != nil {
			t.Fatalf("%s: %v", l.Name(), err)
		}
		if res.Status != solver.Solved {
			t.Errorf("%s: %v after %d expansions", l.Name(), res.Status, res.Stats.Expanded)
		}
	}
}

// TestNoSolution: a level whose box the player can only push away from its
// goal is searched to the end and reported unsolvable.
func TestNoSolution(t *testing.T) {
	l := testlevel.Parse(t, "#######\n#.@$  #\n#######\n")
	res, err := solver.Run(context.Background(), FESS{}, l, solver.Options{Budget: solver.Budget{Time: time.Minute}})
	if err != nil || res.Status != solver.NoSolution {
		t.Fatalf("got %v, %v; want no solution", res.Status, err)
	}
}

// TestBudget: the node and time limits end the search with their status.
func TestBudget(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:29")[0]
	for _, tc := range []struct {
		budget solver.Budget
		want   solver.Status
	}{
		{solver.Budget{Nodes: 10}, solver.NodeLimit},
		{solver.Budget{Time: 50 * time.Millisecond}, solver.TimeLimit},
		{solver.Budget{Memory: 1 << 10}, solver.MemoryLimit},
	} {
		res, err := solver.Run(context.Background(), FESS{}, l, solver.Options{Budget: tc.budget})
		if err != nil || res.Status != tc.want {
			t.Errorf("%+v: got %v, %v; want %v", tc.budget, res.Status, err, tc.want)
		}
	}
	// However small, the node limit is kept: the root's expansion and the
	// backward search's steps count against it, with threads or without.
	small := testlevel.Resolve(t, "microban:150")[0]
	for _, threads := range []int{1, 2} {
		for n := int64(1); n <= 8; n++ {
			res, err := solver.Run(context.Background(), FESS{}, small, solver.Options{Threads: threads, Budget: solver.Budget{Nodes: n}})
			if err != nil || res.Status != solver.NodeLimit || res.Stats.Expanded != n {
				t.Errorf("threads %d, %d nodes: %v after %d expansions, %v; want the node limit after %d", threads, n, res.Status, res.Stats.Expanded, err, n)
			}
		}
	}
	// A strategy with the interleaved backward search: its steps count
	// against the limit, and end the run there.
	for n := int64(1); n <= 40; n++ {
		res, err := solver.Run(context.Background(), FESS{}, small, solver.Options{Params: map[string]string{"strategies": "plan", "backward": "0.5"}, Budget: solver.Budget{Nodes: n}})
		if err != nil || res.Stats.Expanded > n {
			t.Errorf("plan with backward=0.5, %d nodes: %v after %d expansions, %v", n, res.Status, res.Stats.Expanded, err)
		}
	}
}

// TestMacroMovesMatchPushes checks the macro-move generator against the
// obvious version: a breadth-first search over single pushes of one box,
// the others staying put and no box entering a dead square. Both must reach
// the same positions (boxes and player region) with the same fewest
// pushes, on every position within a few pushes of the start of small
// Microban levels, for every box. The canonical player square and the
// change in the number of free areas that each move carries must be those
// that flood fills find.
func TestMacroMovesMatchPushes(t *testing.T) {
	ls := append(testlevel.Resolve(t, "microban:1-30"), testlevel.Resolve(t, "xsokoban90:1-3")...)
	for _, l := range ls {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := deadlock.DeadSquares(b)
		g := newMacroGen(b, dead)
		feat := newFeaturer(b, nil, nil, nil)
		for _, p := range nearStart(b, dead, 40) {
			before, _ := feat.regions(p)
			for _, box := range slices.Clone(p.BoxSquares()) {
				want := pushClosure(p, box, dead)
				got := map[string]int32{}
				g.place(p.BoxSquares())
				moves := g.generate(p, box, nil)
				g.lift(p.BoxSquares())
				player := p.Player()
				for _, m := range moves {
					k := checkMove(t, l.Name(), feat, p, m, before, got)
					g.place(p.BoxSquares())
					path := g.path(p, m)
					g.lift(p.BoxSquares())
					r := p.Clone()
					for _, push := range path {
						if !r.CanPush(push) {
							t.Fatalf("%s: box %d to %d: illegal push in path", l.Name(), box, m.To)
						}
						r.Apply(push)
					}
					if int32(len(path)) != m.Pushes || string(r.Pack(nil)) != k {
						t.Errorf("%s: box %d to %d: path of %d pushes does not replay the move (%d pushes)", l.Name(), box, m.To, len(path), m.Pushes)
					}
				}
				if p.Player() != player {
					t.Fatal("generate moved the player")
				}
				if !maps.Equal(got, want) {
					t.Errorf("%s: box %d: macro-moves reach %d positions, single pushes %d", l.Name(), box, len(got), len(want))
				}
			}
		}
	}
}

// checkMove checks the canonical player square and the change in the
// number of free areas that macro-move m of position p (which has before
// areas) carries against flood fills, records the position it leads to in
// got, which must not hold it yet, and returns that position's key.
func checkMove(t *testing.T, name string, feat *featurer, p *sokoban.Position, m Macro, before int, got map[string]int32) string {
	t.Helper()
	q := p.Clone()
	q.Relocate(m.From, m.To, p.Board().Next(m.To, m.Side))
	k := string(q.Pack(nil))
	if canon := q.Reach(); m.canon != canon {
		t.Errorf("%s: box %d to %d: canonical player %d, want %d", name, m.From, m.To, m.canon, canon)
	}
	if after, _ := feat.regions(q); int(m.regions) != after-before {
		t.Errorf("%s: box %d to %d: %+d regions, want %+d", name, m.From, m.To, m.regions, after-before)
	}
	if old, dup := got[k]; dup {
		t.Errorf("%s: box %d: position reached by two moves (%d and %d steps)", name, m.From, old, m.Pushes)
	}
	got[k] = m.Pushes
	return k
}

// nearStart returns up to limit positions reached from the start by
// breadth-first search over single pushes.
func nearStart(b *sokoban.Board, dead []bool, limit int) []*sokoban.Position {
	out := []*sokoban.Position{b.Start()}
	seen := map[string]bool{string(out[0].Pack(nil)): true}
	for i := 0; i < len(out) && len(out) < limit; i++ {
		for _, m := range out[i].Pushes(nil, dead) {
			q := out[i].Clone()
			q.Apply(m)
			if k := string(q.Pack(nil)); !seen[k] {
				seen[k] = true
				out = append(out, q)
			}
		}
	}
	return out
}

// scattered returns n positions of b with its boxes on live squares
// chosen at random (seeded), the player on a free square: positions a
// search may never meet, with boxes on and off goals in every mix.
func scattered(b *sokoban.Board, dead []bool, n int) []*sokoban.Position {
	rng := rand.New(rand.NewPCG(uint64(b.N), 1))
	var live []sokoban.Square
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if !dead[s] {
			live = append(live, s)
		}
	}
	k := len(b.Goals())
	var out []*sokoban.Position
	for range n {
		rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
		out = append(out, b.PositionOf(slices.Clone(live[:k]), live[k]))
	}
	return out
}

// pushClosure returns the positions (packed) that single pushes of the box
// on box reach from p, with their fewest pushes, p itself left out.
func pushClosure(p *sokoban.Position, box sokoban.Square, dead []bool) map[string]int32 {
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
		for _, m := range it.p.Pushes(nil, dead) {
			if m.Box != it.box {
				continue
			}
			q := it.p.Clone()
			to := q.Apply(m)
			k := string(q.Pack(nil))
			if _, ok := seen[k]; !ok {
				seen[k] = it.n + 1
				queue = append(queue, item{q, to, it.n + 1})
			}
		}
	}
	delete(seen, start)
	return seen
}

// TestPlanCorridor: goals at the end of a corridor are filled deepest
// first, and every plan orders all goals once.
func TestPlanCorridor(t *testing.T) {
	b, pl := levelPlan(t, testlevel.Parse(t, "##########\n#...$$$ @#\n##########\n"))
	var xs []int
	for _, s := range pl.order {
		x, _ := b.XY(s)
		xs = append(xs, x)
	}
	if !slices.Equal(xs, []int{1, 2, 3}) {
		t.Errorf("fill order by column %v, want [1 2 3]", xs)
	}
	for _, l := range testlevel.Resolve(t, "xsokoban90:1-10") {
		b, pl := levelPlan(t, l)
		got := slices.Sorted(slices.Values(pl.order))
		if !slices.Equal(got, b.Goals()) {
			t.Errorf("%s: plan %v is not an order of the goals %v", l.Name(), pl.order, b.Goals())
		}
	}
}

// TestPassingStops: with the tunnels on, the macro-moves left out are
// exactly stops in the middle of a board-splitting tunnel, and the move
// that goes on through the tunnel is kept.
func TestPassingStops(t *testing.T) {
	left := 0
	for _, l := range testlevel.Resolve(t, "microban:1-60") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := deadlock.DeadSquares(b)
		all, some := newMacroGen(b, dead), newMacroGen(b, dead)
		if some.macros, err = deadlock.NewMacros(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		for _, p := range nearStart(b, dead, 20) {
			all.place(p.BoxSquares())
			some.place(p.BoxSquares())
			for _, box := range p.BoxSquares() {
				kept := map[[2]int32]bool{}
				for _, m := range some.generate(p, box, nil) {
					kept[[2]int32{m.To, int32(m.Side)}] = true
				}
				for _, m := range all.generate(p, box, nil) {
					if kept[[2]int32{m.To, int32(m.Side)}] {
						continue
					}
					left++
					d := m.Side ^ 1 // the last push's direction
					s := m.To
					for some.passing(s, d) && !kept[[2]int32{s, int32(m.Side)}] {
						s = b.Next(s, d)
					}
					if s == m.To || !kept[[2]int32{s, int32(m.Side)}] {
						t.Errorf("%s: box %d to %d left out, but it is not a passing stop with a move on kept", l.Name(), box, m.To)
					}
				}
			}
			all.lift(p.BoxSquares())
			some.lift(p.BoxSquares())
		}
	}
	if left == 0 {
		t.Error("no stop was left out: the test tests nothing")
	}
}

// TestHotspots: in a corridor the box nearer the goals blocks the one
// behind it from both goals, and not the other way round.
func TestHotspots(t *testing.T) {
	l := testlevel.Parse(t, "#########\n#.. $ $@#\n#########\n")
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	h, err := newHotspots(context.Background(), b)
	if err != nil || h == nil {
		t.Fatal(h, err)
	}
	near, far := b.At(4, 1), b.At(6, 1)
	if got := h.blocked[int(far)*b.N+int(near)]; got != 3 {
		t.Errorf("box on (4,1) blocks goals %b of the box on (6,1), want 11", got)
	}
	if got := h.blocked[int(near)*b.N+int(far)]; got != 0 {
		t.Errorf("box on (6,1) blocks goals %b of the box on (4,1), want none", got)
	}
	if got := h.hotspots(b.Start()); got != 1 {
		t.Errorf("%d hotspots, want 1", got)
	}
}

// TestHotspotsAfter: the count for a child, updated from its parent's,
// equals the count made from scratch, on every macro-move of positions
// near the start of XSokoban levels.
func TestHotspotsAfter(t *testing.T) {
	checked, onGoals := 0, 0
	for _, l := range testlevel.Resolve(t, "xsokoban90:1-6") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		h, err := newHotspots(context.Background(), b)
		if err != nil || h == nil {
			t.Fatal(h, err)
		}
		dead := deadlock.DeadSquares(b)
		g := newMacroGen(b, dead)
		for _, p := range append(nearStart(b, dead, 30), scattered(b, dead, 30)...) {
			h.prepare(p)
			g.place(p.BoxSquares())
			var moves []Macro
			for _, box := range p.BoxSquares() {
				moves = g.generate(p, box, moves)
			}
			g.lift(p.BoxSquares())
			for _, m := range moves {
				q := p.Clone()
				q.Relocate(m.From, m.To, b.Next(m.To, m.Side))
				if got, want := h.after(q, m.From, m.To), h.hotspots(q); got != want {
					t.Fatalf("%s: box %d to %d: %d hotspots updated, %d counted", l.Name(), m.From, m.To, got, want)
				}
				checked++
				if h.goalBit[m.From]|h.goalBit[m.To] != 0 {
					onGoals++
				}
			}
		}
	}
	if checked == 0 || onGoals == 0 {
		t.Fatalf("%d moves checked, %d of them to or from a goal", checked, onGoals)
	}
	t.Logf("%d moves checked, %d of them to or from a goal", checked, onGoals)
}

// TestLearnsPatterns: on Microban 144, whose plan misleads plan FESS into
// dead subtrees, the search learns deadlock patterns from them and prunes
// positions with them; the counters say so.
func TestLearnsPatterns(t *testing.T) {
	l := testlevel.Resolve(t, "microban:144")[0]
	res, err := row("plan").Solve(context.Background(), l, solver.Options{Budget: solver.Budget{Nodes: 20_000}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Counts["patterns"] == 0 || res.Stats.Counts["dead.pattern"] == 0 {
		t.Fatalf("patterns learned %d, positions they proved dead %d", res.Stats.Counts["patterns"], res.Stats.Counts["dead.pattern"])
	}
}

// TestSolvesXSokoban guards the strength of plan FESS in CI: within 5,000
// expansions (a budget that does not depend on the machine) it solves
// XSokoban 1–5, 7 and 8, as measured when the test was written; solver.Run
// verifies every solution.
func TestSolvesXSokoban(t *testing.T) {
	e, _ := solver.Lookup("fess")
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8} {
		l := testlevel.Resolve(t, fmt.Sprintf("xsokoban90:%d", n))[0]
		opts := solver.Options{Budget: solver.Budget{Nodes: 5000, Time: 5 * time.Minute}, Params: map[string]string{"strategies": "plan"}}
		res, err := solver.Run(context.Background(), e.New(), l, opts)
		if err != nil {
			t.Fatalf("%s: %v", l.Name(), err)
		}
		if res.Status != solver.Solved {
			t.Errorf("%s: %v after %d expansions", l.Name(), res.Status, res.Stats.Expanded)
		}
	}
}

// TestReplan: on Microban levels whose goals cannot all be peeled in turn,
// plan FESS takes its plan from the backward search (every goal once) and
// solves the level within a small node budget.
func TestReplan(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:3,11,12,18,22,24,29,33") {
		b, pl := levelPlan(t, l)
		if pl.peeled {
			t.Fatalf("%s: peeling found an order; pick a level where it does not", l.Name())
		}
		order, err := PlanOrder(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := slices.Sorted(slices.Values(order)), slices.Sorted(slices.Values(b.Goals())); !slices.Equal(got, want) {
			t.Fatalf("%s: replanned order %v is not the goals %v", l.Name(), order, want)
		}
		opts := solver.Options{Budget: solver.Budget{Nodes: 3000, Time: time.Minute}, Params: map[string]string{"strategies": "plan"}}
		res, err := solver.Run(context.Background(), FESS{}, l, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solver.Solved || res.Stats.Counts["plan.replanned"] != 1 {
			t.Fatalf("%s: %v after %d expansions, counts %v", l.Name(), res.Status, res.Stats.Expanded, res.Stats.Counts)
		}
	}
}

// levelPlan returns l's board and the plan peeling (or the greedy order)
// gives it.
func levelPlan(t *testing.T, l *level.Level) (*sokoban.Board, *plan) {
	t.Helper()
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := newPlan(context.Background(), b, newMacroGen(b, nil))
	if err != nil {
		t.Fatal(err)
	}
	return b, pl
}

// TestForestMatchesSplit: the macro-moves generated from the forest of
// the placed position (placeAll, then generate or generatePull) are the ones
// split's search per box gives, with the same player regions, canonical
// squares and region counts, pushed and pulled, on positions near the
// start and scattered ones.
func TestForestMatchesSplit(t *testing.T) {
	checked := 0
	for _, l := range append(testlevel.Resolve(t, "xsokoban90:1-20"), testlevel.Resolve(t, "microban:100-155")...) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := deadlock.DeadSquares(b)
		forest, split := newMacroGen(b, dead), newMacroGen(b, dead)
		for _, p := range append(nearStart(b, dead, 20), scattered(b, dead, 20)...) {
			boxes := p.BoxSquares()
			forest.placeAll(boxes)
			split.place(boxes)
			for _, box := range boxes {
				for _, pull := range []bool{false, true} {
					var got, want []Macro
					if pull {
						got, want = forest.generatePull(p, box, nil), split.generatePull(p, box, nil)
					} else {
						got, want = forest.generate(p, box, nil), split.generate(p, box, nil)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s: box %d, pull %v:\n%v\nfrom the forest,\n%v\nfrom split", l.Name(), box, pull, got, want)
					}
					checked += len(got)
				}
			}
			forest.lift(boxes)
			split.lift(boxes)
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d macro-moves checked", checked)
	}
	t.Logf("%d macro-moves checked", checked)
}
