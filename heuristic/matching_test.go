package heuristic

import (
	"context"
	"math/rand/v2"
	"testing"

	"soko/internal/stategraph"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
)

// TestMatcherRematch checks the repair of a few rows (unmatch, new row,
// rematch) against brute force on random matrices: a table of candidate
// rows, of which a base takes n and each child swaps up to three for others.
func TestMatcherRematch(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	checked := 0
	for trial := range 3000 {
		n := 1 + r.IntN(6)
		rows := n + 1 + r.IntN(6)
		square := randomMatrix(r, rows, trial%numStyles)
		table := make([]int32, rows*n)
		for i := range rows {
			copy(table[i*n:i*n+n], square[i*rows:])
		}
		m := NewMatcher(n)
		m.table = table
		perm := r.Perm(rows)
		for i := range n {
			m.off[i] = perm[i] * n
		}
		if _, ok := m.solve(n); !ok {
			continue
		}
		var base matchState
		m.save(&base, n)
		for range 5 {
			m.restore(&base, n)
			var free []int
			for range 1 + r.IntN(min(n, 3)) {
				i := r.IntN(n)
				m.unmatch(i)
				m.off[i] = r.IntN(rows) * n
				free = append(free, i)
			}
			cost := make([]int32, n*n)
			for i := range n {
				copy(cost[i*n:], m.row(i, n))
			}
			want, wantOK := bruteForce(cost, n)
			got, ok := m.rematch(n, free)
			if ok != wantOK || ok && got != saturate(want) {
				t.Fatalf("n=%d cost=%v: rematch %d %v, brute force %d %v", n, cost, got, ok, want, wantOK)
			}
			if ok {
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d repairs had a matching to compare", checked)
	}
}

// newBounds returns the board of l and a constructor of its plain
// (sided false) and sided PushMatching.
func newBounds(t *testing.T, l *level.Level) (*sokoban.Board, func(sided bool) *PushMatching) {
	t.Helper()
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	dist, err := b.PullDistances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bySide, err := b.PullDistancesBySide(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sides := b.NewSides()
	return b, func(sided bool) *PushMatching {
		if sided {
			lb, err := NewSidedPushMatching(context.Background(), b, sides, bySide)
			if err != nil {
				t.Fatal(err)
			}
			return lb
		}
		return NewPushMatching(b, dist)
	}
}

// TestPushMatchingChildMatchesBound walks Microban and XSokoban levels
// breadth-first and checks, on every state and every push from it, that
// SetBase and Child agree with a bound solved from scratch by a second
// PushMatching, plain and sided. Consecutive bases share more or fewer
// boxes, or had their matching kept (Keep), so all of SetBase's ways are
// exercised.
func TestPushMatchingChildMatchesBound(t *testing.T) {
	ls := append(testlevel.Resolve(t, "microban:1-20,93,144,153"), testlevel.Resolve(t, "xsokoban90:1-3")...)
	kept := 0
	for _, l := range ls {
		for _, sided := range []bool{false, true} {
			b, bound := newBounds(t, l)
			kept += checkChildren(t, l, b, bound(sided), bound(sided))
		}
	}
	if kept == 0 {
		t.Errorf("SetBase never started from a matching Keep stashed")
	}
	t.Logf("SetBase started from a kept matching %d times", kept)
}

func checkChildren(t *testing.T, l *level.Level, b *sokoban.Board, m, ref *PushMatching) (kept int) {
	t.Helper()
	p := b.Start()
	store := sokoban.NewStore(b.KeySize())
	store.Intern(p.Pack(nil), p.Hash())
	var pushes []sokoban.Push
	// Depth-first, like a best-first search with deepest-first ties, so
	// that SetBase often meets a state whose matching Keep stashed.
	stack := []uint32{0}
	for n := 0; len(stack) > 0 && n < 2000; n++ {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p.Unpack(store.Key(id))
		for _, st := range m.stash {
			if st.valid && st.id == id {
				kept++
			}
		}
		h, ok := m.SetBase(p, id)
		if wh, wok := ref.Bound(p); h != wh || ok != wok {
			t.Fatalf("%s state %d: SetBase %d %v, Bound %d %v", l.Name(), id, h, ok, wh, wok)
		}
		pushes = p.Pushes(pushes[:0], nil)
		for _, mv := range pushes {
			p.Apply(mv)
			h, ok := m.Child(p)
			if wh, wok := ref.Bound(p); h != wh || ok != wok {
				t.Fatalf("%s state %d push %v: Child %d %v, Bound %d %v", l.Name(), id, mv, h, ok, wh, wok)
			}
			if ok {
				checkLeaveCost(t, l, m)
			}
			child, fresh := store.Intern(p.Pack(nil), p.Hash())
			if fresh {
				stack = append(stack, child)
			}
			if ok {
				m.Keep(child)
			}
			p.Undo(mv)
		}
	}
	return kept
}

// checkLeaveCost checks LeaveCost, for every box and goal of the matching m
// made last, against its definition: the least of 2 + r(i, j) and r(i, k)
// over the other goals k, from the row potential.
func checkLeaveCost(t *testing.T, l *level.Level, m *PushMatching) {
	t.Helper()
	for i := range m.n {
		u, ok := m.rowPotential(i)
		for j := range m.n {
			want := int32(0)
			if ok {
				want = int32(min(m.leaveCost(i, j, u), int64(Inf-1)))
			}
			if got := m.LeaveCost(i, j); got != want {
				t.Fatalf("%s: LeaveCost(%d, %d) = %d, want %d", l.Name(), i, j, got, want)
			}
		}
	}
}

// TestPushMatchingIsAdmissible builds the complete push graphs of small
// levels, finds every state's true distance in pushes to a solved state by
// breadth-first search backwards from the solved states, and checks that
// the bound never exceeds it, from scratch (Bound) or repaired (SetBase on
// each state, Child on each successor), and that it never calls a state
// with a solution a deadlock.
func TestPushMatchingIsAdmissible(t *testing.T) {
	const limit = 200000 // states per level
	checked, stronger := 0, 0
	for _, l := range testlevel.Resolve(t, "microban:1-60") {
		b, bound := newBounds(t, l)
		g := stategraph.Build(b, nil, limit)
		if g == nil {
			continue
		}
		checked++
		plain := bound(false)
		for _, m := range []*PushMatching{plain, bound(true)} {
			stronger += checkAdmissible(t, l, b, m, plain, g)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d levels have complete graphs under %d states", checked, limit)
	}
	if stronger == 0 {
		t.Errorf("the sided bound is never stronger than the plain one")
	}
	t.Logf("checked the complete graphs of %d levels; the sided bound is stronger on %d states", checked, stronger)
}

// checkAdmissible checks m on every state and edge of a complete graph
// and returns on how many states it is above the plain bound, which it
// must never be below.
func checkAdmissible(t *testing.T, l *level.Level, b *sokoban.Board, m, plain *PushMatching, g *stategraph.Graph) int {
	t.Helper()
	stronger := 0
	p, q := b.Start(), b.Start()
	for id, key := range g.Keys {
		p.Unpack(key)
		h, ok := m.SetBase(p, uint32(id))
		if hp, okp := plain.Bound(p); ok && (!okp || h < hp) {
			t.Fatalf("%s: bound %d below the plain bound %d (ok %v)", l.Name(), h, hp, okp)
		} else if ok && h > hp {
			stronger++
		}
		if d := g.Dist[id]; d >= 0 && (!ok || h > d) {
			t.Fatalf("%s: bound %d (ok %v) on a state %d pushes from solved:\n%s", l.Name(), h, ok, d, rows(p))
		}
		pushes := p.Pushes(nil, nil)
		for k, mv := range pushes {
			p.Apply(mv)
			h, ok := m.Child(p)
			if d := g.Dist[g.Edges[id][k]]; d >= 0 && (!ok || h > d) {
				t.Fatalf("%s: repaired bound %d (ok %v) on a state %d pushes from solved", l.Name(), h, ok, d)
			}
			q.Unpack(g.Keys[g.Edges[id][k]])
			if hq, okq := m.Bound(q); hq != h || okq != ok {
				t.Fatalf("%s: repaired bound %d %v, from scratch %d %v", l.Name(), h, ok, hq, okq)
			}
			p.Undo(mv)
		}
	}
	return stronger
}

func rows(p *sokoban.Position) string {
	var s string
	for _, r := range p.Rows() {
		s += r + "\n"
	}
	return s
}

// TestPushMatchingTable checks the blocked transposition against dist read
// entry by entry, on levels whose slot counts are not multiples of the
// block, and that a done context stops the sided constructor.
func TestPushMatchingTable(t *testing.T) {
	partial := 0 // tables whose last block is partial
	for _, name := range []string{"microban:1", "xsokoban90:1"} {
		l := testlevel.Resolve(t, name)[0]
		b, newBound := newBounds(t, l)
		for _, sided := range []bool{false, true} {
			lb := newBound(sided)
			slots := b.N
			if sided {
				slots = 4 * b.N
			}
			var dist [][]int32
			var err error
			if sided {
				dist, err = b.PullDistancesBySide(context.Background())
			} else {
				dist, err = b.PullDistances(context.Background())
			}
			if err != nil {
				t.Fatal(err)
			}
			if slots%16 != 0 {
				partial++
			}
			for j, row := range dist {
				for k := range slots {
					if got, want := lb.table[k*lb.n+j], min(row[k], Inf); got != want {
						t.Fatalf("%s sided=%v: slot %d goal %d: %d, want %d", name, sided, k, j, got, want)
					}
				}
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		bySide, err := b.PullDistancesBySide(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewSidedPushMatching(ctx, b, b.NewSides(), bySide); err != context.Canceled {
			t.Fatalf("%s: a cancelled context gave %v", name, err)
		}
	}
	if partial == 0 {
		t.Fatal("no table ended in a partial block")
	}
}
