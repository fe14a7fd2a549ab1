package fess

import (
	"context"
	"hash/maphash"
	"slices"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// parkSearchOf runs the parking search of level name, with the moving sink
// or not, to its end (at most parkNodes expansions) and returns the board
// and the search.
func parkSearchOf(t *testing.T, name string, moving bool) (*sokoban.Board, *parkSearch) {
	return parkSearchOrdered(t, name, moving, false)
}

// parkSearchOrdered is parkSearchOf, ordered as Festival's pull search
// when pullOrder is set.
func parkSearchOrdered(t *testing.T, name string, moving, pullOrder bool) (*sokoban.Board, *parkSearch) {
	t.Helper()
	return parkSearchSteps(t, name, moving, pullOrder, parkNodes)
}

// parkSearchSteps is parkSearchOrdered for at most steps expansions.
func parkSearchSteps(t *testing.T, name string, moving, pullOrder bool, steps int) (*sokoban.Board, *parkSearch) {
	t.Helper()
	l := testlevel.Resolve(t, name)[0]
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	dist, err := b.PullDistances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ps, err := newParkSearch(context.Background(), b, nearestGoal(dist, b.N), moving, pullOrder)
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		if !ps.step() {
			break
		}
	}
	return b, ps
}

// TestParkSearchSplitCounts: each position the parking search stored has
// the canonical player square and the count of areas of free squares that
// a flood of its board gives (the slow, obvious way), though a pull's
// child takes them from the split of the box's area, and is stored under
// its key's hash, though step works the keys and hashes of a position's
// pulls out before interning any (pullKeys).
func TestParkSearchSplitCounts(t *testing.T) {
	for _, c := range []struct {
		name              string
		moving, pullOrder bool
	}{
		{"xsokoban90:41", false, false}, {"xsokoban90:50", false, true}, {"xsokoban90:77", true, false}, {"xsokoban90:89", false, false},
	} {
		b, ps := parkSearchSteps(t, c.name, c.moving, c.pullOrder, 200)
		checked := 0
		for id := int32(0); int(id) < len(ps.nodes); id++ {
			nd := ps.nodes[id]
			if nd.parent < 0 {
				continue
			}
			if key := ps.store.Key(uint32(id)); ps.store.Hash(uint32(id)) != maphash.Bytes(parkSeed, key) {
				t.Fatalf("%s (moving %v): position %d stored with hash %x, its key's is %x", c.name, c.moving, id, ps.store.Hash(uint32(id)), maphash.Bytes(parkSeed, key))
			}
			canon := ps.unpack(id)
			ps.g.place(ps.boxes)
			flooded := ps.flood(b.Next(nd.to, nd.side))
			regions := ps.regions()
			ps.g.lift(ps.boxes)
			if canon != flooded || int(nd.regions) != regions {
				t.Fatalf("%s (moving %v): position %d after the pull %d->%d: canonical square %d, regions %d; a flood gives %d and %d",
					c.name, c.moving, id, nd.from, nd.to, canon, nd.regions, flooded, regions)
			}
			checked++
		}
		if checked < 100 {
			t.Errorf("%s (moving %v): only %d positions to check", c.name, c.moving, checked)
		}
	}
}

// TestParkReplay: the entries of a complete parking plan, replayed forward
// from the start, are legal and end with every goal filled. The boxes on
// the start squares of the sink (the moving sink's: those taken) that the
// search's end position leaves free wait off the board; an entry out of
// the sink puts one on its from square, which must be free (with the
// moving sink, the player may have crossed it before), and every such box
// is used. Each other entry needs a box on from; the box must get from
// there to to by pushes of a lone box, the other boxes standing still, the
// player starting where the last push left it (any square it can walk to
// at first).
func TestParkReplay(t *testing.T) {
	for _, c := range []struct {
		name   string
		moving bool
	}{
		{"xsokoban90:87", false}, {"xsokoban90:23", false}, {"xsokoban90:1", false},
		{"microban:3", false}, {"microban:12", false}, {"microban:24", false},
		// Where the fixed sink finds no position to start from.
		{"xsokoban90:23", true}, {"xsokoban90:41", true}, {"xsokoban90:77", true},
	} {
		name := c.name
		b, ps := parkSearchOf(t, name, c.moving)
		if ps.done < 0 {
			t.Errorf("%s (moving %v): the parking search found no position to start from", name, c.moving)
			continue
		}
		ps.unpack(ps.done)
		atEnd := slices.Clone(ps.boxes)
		occ := make([]bool, b.N)
		pool := 0
		for _, s := range b.Start().BoxSquares() {
			if slices.Contains(atEnd, s) {
				occ[s] = true
			} else if !ps.moving && ps.sink[s] || ps.moving && ps.used[s] {
				pool++
			} else {
				t.Fatalf("%s: start square %v free at the end but not in the sink", name, s)
			}
		}
		entries := ps.entries(ps.done)
		g := newMacroGen(b, nil)
		player := b.Start().Player()
		for i, en := range entries {
			if en.sink {
				if pool == 0 || occ[en.from] {
					t.Fatalf("%s: entry %d %+v: no box out of the sink (%d left) or from taken", name, i, en, pool)
				}
				pool--
				occ[en.from] = true
			}
			if !occ[en.from] {
				t.Fatalf("%s: entry %d %+v: no box on from", name, i, en)
			}
			if en.from == en.to {
				continue
			}
			copy(g.occ, occ)
			// With the moving sink, a box waits off the board until its
			// entry (Festival's bases), so the player may cross its start
			// square before.
			occ[en.from] = !(c.moving && en.sink)
			reach := flood(b, occ, player)
			occ[en.from] = true
			g.split(en.from)
			g.search(en.from, func(s sokoban.Square) bool { return reach[s] }, false)
			ok := false
			for _, st := range g.queue {
				if sokoban.Square(st/4) == en.to {
					ok, player = true, b.Next(en.to, sokoban.Dir(st%4))
					break
				}
			}
			if !ok {
				t.Fatalf("%s: entry %d %+v: the box cannot be pushed there", name, i, en)
			}
			occ[en.from], occ[en.to] = false, true
			clear(g.occ)
		}
		if pool != 0 {
			t.Errorf("%s: %d boxes left in the sink", name, pool)
		}
		for s := range occ {
			if occ[s] != b.IsGoal(sokoban.Square(s)) {
				t.Errorf("%s: square %d: box %v, goal %v at the end", name, s, occ[s], b.IsGoal(sokoban.Square(s)))
			}
		}
	}
}

// flood returns the squares the player walks to from s, the boxes on occ.
func flood(b *sokoban.Board, occ []bool, s sokoban.Square) []bool {
	seen := make([]bool, b.N)
	seen[s] = true
	stack := []sokoban.Square{s}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range sokoban.Dirs {
			if c := b.Next(t, d); c != sokoban.None && !seen[c] && !occ[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	return seen
}

// TestParkPacked: the parking plan's packed count on a hand-made plan: a
// box parked on a square counts only while no later entry of the prefix
// has moved it on, and then it may be missing.
func TestParkPacked(t *testing.T) {
	l := testlevel.Parse(t, "#########\n#@ $$$..#\n#     . #\n#########\n")
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	sq := func(x, y int) sokoban.Square { return b.At(x, y) }
	// Park a box on (5,2), fill (6,1), move the parked box on to (6,2),
	// fill (7,1).
	pk, err := newParking(context.Background(), b, newMacroGen(b, nil), []parkEntry{
		{from: sq(5, 1), to: sq(5, 2)},
		{from: sq(4, 1), to: sq(6, 1)},
		{from: sq(5, 2), to: sq(6, 2)},
		{from: sq(3, 1), to: sq(7, 1)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := pk.entries[0].until; got != 2 {
		t.Fatalf("until of the parked box = %d, want 2", got)
	}
	for _, tc := range []struct {
		boxes []sokoban.Square
		want  int
	}{
		{[]sokoban.Square{sq(3, 1), sq(4, 1), sq(5, 1)}, 0},
		{[]sokoban.Square{sq(3, 1), sq(4, 1), sq(5, 2)}, 1},
		{[]sokoban.Square{sq(3, 1), sq(6, 1), sq(5, 2)}, 2},
		{[]sokoban.Square{sq(3, 1), sq(6, 1), sq(6, 2)}, 3}, // parked box moved on
		{[]sokoban.Square{sq(3, 1), sq(4, 1), sq(6, 2)}, 0}, // (6,1) empty: entry 1 fails
		{[]sokoban.Square{sq(7, 1), sq(6, 1), sq(6, 2)}, 4},
		{[]sokoban.Square{sq(7, 1), sq(6, 1), sq(5, 1)}, 0},
	} {
		p := b.PositionOf(tc.boxes, sq(1, 1))
		if got := pk.packed(p); got != tc.want {
			t.Errorf("boxes %v: packed %d, want %d", tc.boxes, got, tc.want)
		}
	}
	// At the end every box is home: none out of plan.
	if n := pk.outOfPlan(b.PositionOf(b.Goals(), sq(1, 1)), 4); n != 0 {
		t.Errorf("out of plan at the end: %d", n)
	}
}

// TestParkSolvesWherePlanCannot: XSokoban 87's goal room fills only with a
// box parked above it first, which no order of the goals says; park solves
// it within 70,000 expansions (60,554 with the deadlock table, 13,926
// before it: the clearing advisor took it to 29,800 from 8,000, the
// explorer after it back), plan does not.
func TestParkSolvesWherePlanCannot(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:87")[0]
	for _, tc := range []struct {
		strategy string
		want     solver.Status
	}{
		{"park", solver.Solved},
		{"plan", solver.NodeLimit},
	} {
		opts := solver.Options{Budget: solver.Budget{Nodes: 70_000, Time: 5 * time.Minute}, Params: map[string]string{"strategies": tc.strategy}}
		res, err := solver.Run(context.Background(), FESS{}, l, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tc.want {
			t.Errorf("%s: %v after %d expansions, want %v", tc.strategy, res.Status, res.Stats.Expanded, tc.want)
		}
		if tc.strategy == "park" && res.Stats.Counts["park.parking.complete"] != 1 {
			t.Errorf("park: counts %v, want a complete parking plan", res.Stats.Counts)
		}
	}
}

// TestParkMemory: the parking search's memory counts towards the budget, so
// on XSokoban 23, whose parking search stores some 45 positions an
// expansion, a small memory limit ends the park strategy within its
// parking search (a third of the node budget), not after it.
func TestParkMemory(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:23")[0]
	const nodes = 100_000
	opts := solver.Options{Budget: solver.Budget{Nodes: nodes, Memory: 24 << 20}}
	res, err := solver.Run(context.Background(), row("park"), l, opts)
	if err != nil || res.Status != solver.MemoryLimit {
		t.Fatalf("got %v, %v; want the memory limit", res.Status, err)
	}
	if limit := nodes * parkShare; float64(res.Stats.Expanded) >= limit {
		t.Errorf("stopped after %d expansions, past the parking search's %.0f", res.Stats.Expanded, limit)
	}
}

// TestParkPlanDeadline: on the largest board, where the parking search's
// set-up takes about a second and its plan's zones seconds more, ParkPlan
// stops at its context's deadline (within the margin two loaded cores
// need), and the set-up alone stops at once on a context already done.
func TestParkPlanDeadline(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Open(level.MaxWidth, level.MaxHeight, level.MaxBoxes))
	if err != nil {
		t.Fatal(err)
	}
	const budget, margin = 500 * time.Millisecond, 1500 * time.Millisecond
	for _, moving := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		start := time.Now()
		_, _, _, err = ParkPlan(ctx, b, moving, false)
		if elapsed := time.Since(start); err != context.DeadlineExceeded || elapsed > budget+margin {
			t.Errorf("ParkPlan (moving %v): %v after %v, want the deadline within %v", moving, err, elapsed, budget+margin)
		}
		cancel()
		done, cancelNow := context.WithCancel(context.Background())
		cancelNow()
		if _, err := newParkSearch(done, b, make([]int32, b.N), moving, false); err != context.Canceled {
			t.Errorf("newParkSearch (moving %v) on a cancelled context: %v, want %v", moving, err, context.Canceled)
		}
	}
}

// TestParkRemovalsFirst: a position of the parking search from which a box
// can leave the board has only such pulls for children, one per box; so
// the search finds a position to start from on XSokoban 88, where with
// every pull it ran out of its 20,000 expansions.
func TestParkRemovalsFirst(t *testing.T) {
	_, ps := parkSearchOf(t, "xsokoban90:88", false)
	if ps.done < 0 {
		t.Errorf("no position to start from after %d positions", len(ps.nodes))
	}
	kids := map[int32][]parkNode{}
	for _, nd := range ps.nodes {
		if nd.parent >= 0 {
			kids[nd.parent] = append(kids[nd.parent], nd)
		}
	}
	removing := 0
	for parent, ks := range kids {
		if !slices.ContainsFunc(ks, func(k parkNode) bool { return k.removed }) {
			continue
		}
		removing++
		boxes := map[sokoban.Square]bool{}
		for _, k := range ks {
			if !k.removed || boxes[k.from] {
				t.Fatalf("position %d: child %+v beside a removal", parent, k)
			}
			boxes[k.from] = true
		}
	}
	if removing == 0 {
		t.Error("no position with a removal")
	}
}

// TestMovingSinkStarts: on XSokoban 77 the fixed sink's parking search
// finds no position to start from within parkNodes expansions, and the
// moving sink's does.
func TestMovingSinkStarts(t *testing.T) {
	if _, ps := parkSearchOf(t, "xsokoban90:77", false); ps.done >= 0 {
		t.Errorf("the fixed sink found a position to start from; the test wants a level where it finds none")
	}
	if _, ps := parkSearchOf(t, "xsokoban90:77", true); ps.done < 0 {
		t.Errorf("the moving sink found no position to start from")
	}
}

// TestPullOrderStarts: on XSokoban 50 the moving sink's parking search
// finds no position to start from within parkNodes expansions, and the
// same search ordered as Festival's pull search does (the pull strategy;
// docs/fess.md, Diagnosis: it opens a way for the player through the goal
// room to the room that holds most of the boxes); so the sink strategy's
// plan is the pull ordering's (parkOrders).
func TestPullOrderStarts(t *testing.T) {
	if _, ps := parkSearchOrdered(t, "xsokoban90:50", true, false); ps.done >= 0 {
		t.Errorf("the moving sink found a position to start from; the test wants a level where it finds none")
	}
	_, ps := parkSearchOrdered(t, "xsokoban90:50", true, true)
	if ps.done < 0 {
		t.Fatalf("ordered as the pull search, the moving sink found no position to start from")
	}
	ps.unpack(ps.done)
	for _, s := range ps.boxes {
		if !ps.start[s] || ps.used[s] {
			t.Errorf("the position it ended at has a box on %v, not a free start square", s)
		}
	}
	b := ps.b
	sink, _, complete, err := ParkPlan(context.Background(), b, true, false)
	if err != nil {
		t.Fatal(err)
	}
	pull, _, _, err := ParkPlan(context.Background(), b, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if !complete || !slices.Equal(sink, pull) {
		t.Errorf("the sink strategy's plan: complete %v, %d entries, the pull ordering's %d; want it complete and the same", complete, len(sink), len(pull))
	}
}

// TestSinkPulls: on XSokoban 50 the sink strategy's own ordering finds no
// position to start from in its part of the budget, and the strategy
// takes the pull ordering's plan (counted as parking.pulled); on XSokoban
// 1 its own ordering finds one and the pull ordering is not tried.
func TestSinkPulls(t *testing.T) {
	for _, tc := range []struct {
		level  string
		pulled int64
	}{{"xsokoban90:50", 1}, {"xsokoban90:1", 0}} {
		l := testlevel.Resolve(t, tc.level)[0]
		opts := solver.Options{Budget: solver.Budget{Nodes: 3000, Time: time.Minute}, Params: map[string]string{"strategies": "sink"}}
		res, err := solver.Run(context.Background(), FESS{}, l, opts)
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Stats.Counts; c["sink.parking.complete"] != 1 || c["sink.parking.pulled"] != tc.pulled {
			t.Errorf("%s: parking.complete %d, parking.pulled %d; want 1 and %d", tc.level, c["sink.parking.complete"], c["sink.parking.pulled"], tc.pulled)
		}
	}
}

// TestMatchesAfter: the moving sink's matching mended after one box moves
// or leaves the board (startMatcher's child and leave) agrees with the
// matching worked out afresh, for every box of Microban 1's goals moved to
// every square and taken off on every start square.
func TestMatchesAfter(t *testing.T) {
	b, ps := parkSearchOf(t, "microban:1", true)
	ps.unpack(0) // a root: a box on every goal, no start square taken
	boxes := slices.Clone(ps.boxes)
	fresh := newStartMatcher(b.N, ps.rows)
	m := ps.match
	clear(m.taken)
	if !m.prepare(boxes) {
		t.Fatal("the solved position does not match")
	}
	agreed, refused, left, kept := 0, 0, 0, 0
	for i, from := range boxes {
		for s := sokoban.Square(0); int(s) < b.N; s++ {
			moved := slices.Clone(boxes)
			moved[i] = s
			want := fresh.prepare(moved)
			if got := m.child(from, s); got != want {
				t.Fatalf("box %d to %v: mended %v, afresh %v", i, s, got, want)
			}
			agreed++
			if !want {
				refused++
			}
		}
		for k, st := range ps.starts {
			rest := slices.Delete(slices.Clone(boxes), i, i+1)
			fresh.taken[k] = true
			want := fresh.prepare(rest)
			fresh.taken[k] = false
			if got := m.leave(from, k); got != want {
				t.Fatalf("box %d off on %v: mended %v, afresh %v", i, st, got, want)
			}
			left++
			if want {
				kept++
			}
		}
	}
	if refused == 0 || refused == agreed {
		t.Errorf("%d of %d moves refused: the test wants both kinds", refused, agreed)
	}
	if kept == 0 || kept == left {
		t.Errorf("%d of %d removals kept a matching: the test wants both kinds", kept, left)
	}
}
