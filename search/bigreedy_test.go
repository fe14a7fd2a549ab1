package search

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"soko/deadlock"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
	"soko/verify"
)

// runBiGreedy runs bigreedy on l with params under budget b, through
// solver.Run, which verifies every solution.
func runBiGreedy(t testing.TB, l *level.Level, params map[string]string, b solver.Budget) solver.Result {
	t.Helper()
	res, err := solver.Run(context.Background(), BiGreedy{}, l, solver.Options{Budget: b, Params: params})
	if err != nil {
		t.Fatalf("%s %v: %v", l.Name(), params, err)
	}
	return res
}

// TestBiGreedySolvesMicroban: forward alone, backward alone and both, on
// either bound and with the optional pruning, solve the first 60 Microban
// levels, every solution verified.
func TestBiGreedySolvesMicroban(t *testing.T) {
	for _, params := range []map[string]string{
		{"back": "0"}, {"back": "1"}, {"back": "0.5"},
		{"back": "0.5", "matching": "0", "backmatching": "0", "backdeep": "0"},
		{"back": "0.5", "rooms": "0", "tunnels": "0", "frozengoals": "1"},
	} {
		for _, l := range testlevel.Resolve(t, "microban:1-60") {
			if res := runBiGreedy(t, l, params, solver.Budget{Time: 30 * time.Second}); res.Status != solver.Solved {
				t.Errorf("%s %v: %v", l.Name(), params, res.Status)
			}
		}
	}
}

// TestBiGreedyMeets: with both searches on, solutions are joined where
// they meet, the forward path and the reversed backward path each doing
// part of the pushes, and the joins pass the verifier.
func TestBiGreedyMeets(t *testing.T) {
	joined := 0
	for _, l := range testlevel.Resolve(t, "microban:1-40") {
		res := runBiGreedy(t, l, map[string]string{"back": "0.5"}, solver.Budget{Time: 30 * time.Second})
		if res.Status != solver.Solved {
			t.Fatalf("%s: %v", l.Name(), res.Status)
		}
		f, b := res.Stats.Counts[biMeetForwardCount], res.Stats.Counts[biMeetBackCount]
		if f+b != int64(res.Pushes) {
			t.Errorf("%s: the meeting's parts %d + %d pushes, the solution %d", l.Name(), f, b, res.Pushes)
		}
		if f > 0 && b > 0 {
			joined++
		}
	}
	if joined < 10 {
		t.Errorf("%d of 40 solutions joined both searches' paths, want at least 10", joined)
	}
}

// TestBiGreedyProvesWhatBFSProves is a differential test on small random
// rooms, solvable or not: bigreedy says no solution exactly where bfs
// does when one of its searches prunes soundly only (the backward search
// always; the forward one without the goal-room macro), and with the macro
// and no backward search it may give up but never claims a proof bfs
// does not make. Its solutions are verified.
func TestBiGreedyProvesWhatBFSProves(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 3))
	proofs := 0
	for range 150 {
		text := randomRoom(rng)
		l := testlevel.Parse(t, text)
		want := run(t, BFS{}, l, solver.Budget{Time: 10 * time.Second}).Status
		if want == solver.NoSolution {
			proofs++
		}
		for _, params := range []map[string]string{{"back": "0.5"}, {"back": "1"}, {"back": "1", "backmatching": "0"}, {"back": "0", "rooms": "0"}, {"back": "0.5", "rooms": "0"}} {
			got := runBiGreedy(t, l, params, solver.Budget{Time: 10 * time.Second}).Status
			if got != want {
				t.Errorf("%v on\n%s: %v, bfs %v", params, text, got, want)
			}
		}
		if got := runBiGreedy(t, l, map[string]string{"back": "0"}, solver.Budget{Time: 10 * time.Second}).Status; got != want && got != solver.GaveUp {
			t.Errorf("forward alone on\n%s: %v, bfs %v", text, got, want)
		}
	}
	if proofs < 20 || proofs > 130 {
		t.Errorf("%d of 150 random rooms unsolvable: the test needs both kinds", proofs)
	}
	for _, text := range append(unsolvable, roomTrap) {
		if got := runBiGreedy(t, testlevel.Parse(t, text), nil, solver.Budget{Time: 10 * time.Second}).Status; got != solver.NoSolution {
			t.Errorf("on\n%s: %v, want no solution", text, got)
		}
	}
	if got := runBiGreedy(t, testlevel.Parse(t, roomTrap), map[string]string{"back": "0"}, solver.Budget{Time: 10 * time.Second}).Status; got != solver.GaveUp {
		t.Errorf("forward alone with the goal-room macro on the room trap: %v, want gave up", got)
	}
	// One search's proof ends the run while the other has states left: a
	// 2×2 block of boxes off goals, which the forward search proves dead
	// in a few expansions and the backward one takes some 200,000 to
	// exhaust.
	block := "#########\n#  .  . #\n# @     #\n#   $$  #\n#   $$  #\n#.    $ #\n#  .  . #\n#########"
	if res := runBiGreedy(t, testlevel.Parse(t, block), nil, solver.Budget{Nodes: 2000}); res.Status != solver.NoSolution {
		t.Errorf("the frozen block within 2,000 expansions: %v after %d", res.Status, res.Stats.Expanded)
	}
}

// randomRoom returns an 8×7 room with random inner walls, two or three
// boxes and as many goals, and the player, on distinct free squares.
func randomRoom(rng *rand.Rand) string {
	grid, free := testlevel.Room(rng, 8, 7, 7)
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	n := 2 + rng.IntN(4)/3
	for i := range n {
		grid[free[i][1]][free[i][0]] = '$'
		g := free[n+i]
		grid[g[1]][g[0]] = '.'
	}
	grid[free[2*n][1]][free[2*n][0]] = '@'
	return testlevel.Text(grid)
}

// TestBiGreedySlicesAsOneRun: bigreedy run in slices of 25
// expansions, paused and resumed (BiGreedyMember), searches exactly as one
// run at the same node budget: the same status, counts and solution.
func TestBiGreedySlicesAsOneRun(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		nodes int64
	}{{"microban:105", 20_000}, {"microban:153", 5_000}, {"xsokoban90:5", 3_000}} {
		l := testlevel.Resolve(t, tc.spec)[0]
		budget := solver.Budget{Nodes: tc.nodes}
		whole := runBiGreedy(t, l, nil, budget)
		m := &BiGreedyMember{}
		var sliced solver.Result
		slices := 0
		for until := int64(25); ; until += 25 {
			res, pause, err := m.Slice(context.Background(), l, solver.Options{Budget: budget}, solver.Slice{Whole: budget, Until: solver.Budget{Nodes: until}})
			if err != nil {
				t.Fatal(err)
			}
			slices++
			if !pause.Paused {
				sliced = res
				break
			}
		}
		t.Logf("%s: %v after %d expansions, %d slices", tc.spec, sliced.Status, sliced.Stats.Expanded, slices)
		if slices < 2 {
			t.Errorf("%s: one slice only", tc.spec)
		}
		if sliced.Status == solver.Solved && !verify.Replay(l, sliced.Moves).Solved {
			t.Errorf("%s: the sliced run's solution does not solve the level", tc.spec)
		}
		w, s := whole.Stats, sliced.Stats
		if whole.Status != sliced.Status || level.FormatLURD(whole.Moves) != level.FormatLURD(sliced.Moves) || w.Expanded != s.Expanded || w.Generated != s.Generated || w.Stored != s.Stored {
			t.Errorf("%s: one run %v %d pushes, %d/%d/%d; in %d slices %v %d pushes, %d/%d/%d", tc.spec,
				whole.Status, whole.Pushes, w.Expanded, w.Generated, w.Stored, slices, sliced.Status, sliced.Pushes, s.Expanded, s.Generated, s.Stored)
		}
	}
}

// TestBiGreedyTail: a paused bigreedy answers Tail for every state its
// backward search stored, with legal pushes that solve the position, and
// for none its forward search stored.
func TestBiGreedyTail(t *testing.T) {
	l := testlevel.Resolve(t, "xsokoban90:5")[0]
	m := &BiGreedyMember{}
	budget := solver.Budget{Nodes: 1_000_000}
	if _, pause, err := m.Slice(context.Background(), l, solver.Options{Budget: budget}, solver.Slice{Whole: budget, Until: solver.Budget{Nodes: 3_000}}); err != nil || !pause.Paused {
		t.Fatalf("the slice did not pause: %v", err)
	}
	s := m.s
	b := s.g.board
	p := b.Start()
	backward := 0
	for id := uint32(0); int(id) < s.g.store.Len(); id++ {
		key := s.g.store.Key(id)
		tail, ok := m.Tail(key)
		if ok != (s.side[id] == biBackward) {
			t.Fatalf("state %d of side %d: Tail says %v", id, s.side[id], ok)
		}
		if !ok {
			continue
		}
		backward++
		p.Unpack(key)
		for i, push := range tail {
			to := b.Next(push.Box, push.Dir)
			if behind := b.Next(push.Box, push.Dir^1); !p.HasBox(push.Box) || to < 0 || p.HasBox(to) || behind < 0 || p.HasBox(behind) || !p.Reachable(behind) {
				t.Fatalf("state %d: push %d of %d (%v) is not legal", id, i, len(tail), push)
			}
			p.Apply(push)
		}
		if !p.Solved() {
			t.Fatalf("state %d: its %d pushes do not solve it", id, len(tail))
		}
	}
	if backward == 0 {
		t.Fatal("no backward state to ask about")
	}
	if _, ok := m.Tail([]byte{1}); ok {
		t.Error("Tail answered a key of the wrong size")
	}
}

// TestBiGreedyStartTableSameSearch: the start table drops from the
// backward search only states the start cannot reach, and with them their
// pulls, which the start cannot reach either; the states it can reach are
// stored from the same parents in the same order. So the backward search
// alone, with the table built at once (not after tableAfter expansions),
// expands the same reachable states as without it and ends alike: on
// Microban 1–100 the same status and solution with no more expansions
// (fewer on most), and on random rooms a proof of no solution exactly
// where bfs proves one.
func TestBiGreedyStartTableSameSearch(t *testing.T) {
	back := map[string]string{"back": "1"}
	fewer, levels := 0, 0
	for _, l := range testlevel.Resolve(t, "microban:1-100") {
		budget := solver.Budget{Nodes: 100_000}
		off := runBiGreedy(t, l, map[string]string{"back": "1", "backtable": "0"}, budget)
		if off.Status == solver.NodeLimit {
			continue
		}
		levels++
		on := runStartTableAtOnce(t, l, back, budget)
		if on.Status != off.Status || level.FormatLURD(on.Moves) != level.FormatLURD(off.Moves) || on.Stats.Expanded > off.Stats.Expanded {
			t.Errorf("%s: with the table %v in %d pushes and %d expansions, without %v in %d and %d", l.Name(), on.Status, on.Pushes, on.Stats.Expanded, off.Status, off.Pushes, off.Stats.Expanded)
		}
		if on.Stats.Expanded < off.Stats.Expanded {
			fewer++
		}
	}
	t.Logf("the table saved expansions on %d of %d levels", fewer, levels)
	if fewer < levels/2 {
		t.Errorf("the table saved expansions on %d of %d levels, want half or more", fewer, levels)
	}
	rng := rand.New(rand.NewPCG(78, 2))
	for range 150 {
		text := randomRoom(rng)
		l := testlevel.Parse(t, text)
		want := run(t, BFS{}, l, solver.Budget{Time: 10 * time.Second}).Status
		if got := runStartTableAtOnce(t, l, back, solver.Budget{Time: 10 * time.Second}).Status; got != want {
			t.Errorf("on\n%s: %v with the start table, bfs %v", text, got, want)
		}
	}
}

// runStartTableAtOnce runs bigreedy on l with params under budget b, its
// start table built before the first expansion, and verifies a solution.
func runStartTableAtOnce(t *testing.T, l *level.Level, params map[string]string, b solver.Budget) solver.Result {
	t.Helper()
	s, res, ok, err := newBiSearch(context.Background(), l, solver.Options{Budget: b, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return res
	}
	if s.startLater == nil {
		t.Fatalf("%s: no start table to build", l.Name())
	}
	s.buildStartTable()
	if s.startTable == nil {
		t.Fatalf("%s: the start table was not built", l.Name())
	}
	res, _, err = s.run(solver.Budget{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == solver.Solved && !verify.Replay(l, res.Moves).Solved {
		t.Fatalf("%s: the solution does not solve it", l.Name())
	}
	return res
}

// TestBiGreedyMemberTables: a member given a table source (a portfolio's
// shared table) asks it once for its forward search's deadlock table, and
// with the table the source hands over searches exactly as with one of its
// own; a source that hands over a table without the sets of two and three
// boxes changes the search, so the table used is the one handed over.
func TestBiGreedyMemberTables(t *testing.T) {
	l := testlevel.Resolve(t, "microban:105")[0]
	budget := solver.Budget{Nodes: 40_000}
	run := func(tables TableSource) solver.Result {
		m := &BiGreedyMember{Tables: tables}
		res, pause, err := m.Slice(context.Background(), l, solver.Options{Budget: budget, Params: map[string]string{"back": "0"}}, solver.Slice{Whole: budget})
		if err != nil || pause.Paused {
			t.Fatalf("%v, paused %v", err, pause.Paused)
		}
		return res
	}
	own := run(nil)
	if own.Stats.Expanded < tableAfter {
		t.Fatalf("%d expansions: the table is never built", own.Stats.Expanded)
	}
	calls := 0
	shared := run(func(ctx context.Context, b *sokoban.Board, limits deadlock.TableLimits) (*deadlock.Table, error) {
		calls++
		return deadlock.NewTable(ctx, b, limits)
	})
	if calls != 1 {
		t.Errorf("the source was asked %d times, want once", calls)
	}
	if own.Status != shared.Status || own.Stats.Expanded != shared.Stats.Expanded || own.Stats.Generated != shared.Stats.Generated {
		t.Errorf("own table %v %d/%d, handed over %v %d/%d", own.Status, own.Stats.Expanded, own.Stats.Generated,
			shared.Status, shared.Stats.Expanded, shared.Stats.Generated)
	}
	singles := run(func(ctx context.Context, b *sokoban.Board, limits deadlock.TableLimits) (*deadlock.Table, error) {
		limits.Boxes = 1
		return deadlock.NewTable(ctx, b, limits)
	})
	if singles.Stats.Generated == own.Stats.Generated {
		t.Errorf("a table of single boxes searched as the full one: %d generated", own.Stats.Generated)
	}
}

// TestBiGreedyPulledChildren: the canonical player square and hash the
// backward expansion works out for each pull before interning (so that it
// can load the store's slots first) are those of the child packed with a
// flood of its own, and a pull is dropped exactly when the start table
// says so.
func TestBiGreedyPulledChildren(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:90-100") {
		s, _, ok, err := newBiSearch(context.Background(), l, solver.Options{Params: map[string]string{"back": "1"}})
		if err != nil || !ok {
			t.Fatalf("%s: %v, ok %v", l.Name(), err, ok)
		}
		if s.startLater != nil {
			s.buildStartTable()
		}
		if _, _, err := s.run(solver.Budget{Nodes: 300}, nil); err != nil {
			t.Fatal(err)
		}
		p, checked, dead := s.g.pos, 0, 0
		for id := range uint32(s.g.store.Len()) {
			if s.side[id] != biBackward {
				continue
			}
			p.Unpack(s.g.store.Key(id))
			s.pullsOf(p)
			s.pullChildren(p)
			for i, m := range s.pulls {
				c, child := s.pulled[i], p.Clone()
				to := child.Apply(m)
				child.SetPlayer(s.g.board.Next(to, m.Dir))
				if want := s.startTable != nil && s.startTable.DeadAfterPush(child, to); c.dead != want {
					t.Fatalf("%s: pull %v dropped %v, the start table says %v", l.Name(), m, c.dead, want)
				}
				if c.dead {
					dead++
					continue
				}
				if key := child.Pack(nil); c.hash != child.Hash() || !bytes.Equal(child.PackAt(nil, c.canon), key) {
					t.Fatalf("%s: pull %v: hash %x and square %d, the child packed alone has hash %x", l.Name(), m, c.hash, c.canon, child.Hash())
				}
				checked++
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no pull checked", l.Name())
		}
		t.Logf("%s: %d pulls checked, %d dropped", l.Name(), checked, dead)
	}
}
