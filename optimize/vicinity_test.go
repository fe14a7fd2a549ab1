package optimize

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// slowAdmit is the vicinity's definition, computed the obvious way: some
// configuration Q_t of the stretch, replayed from the start, from which the
// boxes of p differ in at most len(radii) boxes that can be matched to the
// squares Q_t leaves empty, each within its radius (largest radius to the
// farthest box).
func slowAdmit(o *optimizer, start *sokoban.Position, seg []sokoban.Push, radii []int, p *sokoban.Position) bool {
	q := start.Clone()
	for t := 0; ; t++ {
		var off, empty []sokoban.Square
		for _, s := range p.BoxSquares() {
			if !q.HasBox(s) {
				off = append(off, s)
			}
		}
		for _, s := range q.BoxSquares() {
			if !p.HasBox(s) {
				empty = append(empty, s)
			}
		}
		if len(off) <= len(radii) {
			for _, perm := range permutations(len(off)) {
				var ranks []int
				for i, j := range perm {
					ranks = append(ranks, slowRank(o, empty[j], off[i], radii[0]))
				}
				slices.Sort(ranks)
				slices.Reverse(ranks)
				ok := true
				for i, r := range ranks {
					ok = ok && r <= radii[i]
				}
				if ok {
					return true
				}
			}
		}
		if t == len(seg) {
			return false
		}
		q.Apply(seg[t])
	}
}

// slowRank counts the squares a box may stand on in breadth-first order
// from s (directions in their order) until it meets a; 0 for a == s.
func slowRank(o *optimizer, s, a sokoban.Square, limit int) int {
	order := []sokoban.Square{s}
	seen := map[sokoban.Square]bool{s: true}
	n := 0
	for i := 0; i < len(order); i++ {
		q := order[i]
		if q != s && !o.dead[q] {
			n++
			if q == a {
				if n > limit {
					return unlimited
				}
				return n
			}
		}
		for d := range sokoban.Dirs {
			if x := o.b.Next(q, d); x != sokoban.None && !seen[x] {
				seen[x] = true
				order = append(order, x)
			}
		}
	}
	return unlimited
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := slices.Insert(slices.Clone(p), i, n-1)
			out = append(out, q)
		}
	}
	return out
}

// The one-sweep vicinity test agrees with the definition on random
// configurations near and far from greedy's solutions.
func TestAdmitMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, l := range testlevel.Resolve(t, "microban:5,10,30,60") {
		b, pushes := greedyPushes(t, l)
		for _, radii := range [][]int{{3}, {5, 2}, {4, 4, 1}} {
			o := newOptimizer(context.Background(), b, Pushes, radii, DefaultMemory, nil)
			start := b.Start()
			i := rng.IntN(len(pushes))
			for _, m := range pushes[:i] {
				start.Apply(m)
			}
			seg := pushes[i:min(len(pushes), i+1+rng.IntN(20))]
			v := newStretch(o, start, seg, radii)
			var free []sokoban.Square
			for s := range sokoban.Square(b.N) {
				if !o.dead[s] {
					free = append(free, s)
				}
			}
			in := 0
			for range 400 {
				// A configuration of the stretch with up to four boxes moved.
				p := start.Clone()
				for _, m := range seg[:rng.IntN(len(seg)+1)] {
					p.Apply(m)
				}
				boxes := slices.Clone(p.BoxSquares())
				for range rng.IntN(5) {
					k, to := rng.IntN(len(boxes)), free[rng.IntN(len(free))]
					if !slices.Contains(boxes, to) {
						boxes[k] = to
					}
				}
				p = b.PositionOf(boxes, p.Player())
				got, want := v.admit(p), slowAdmit(o, start, seg, radii, p)
				if got != want {
					t.Fatalf("%s radii %v: boxes %v: admit %v, definition %v", l.Name(), radii, boxes, got, want)
				}
				if got {
					in++
				}
			}
			if in == 0 || in == 400 {
				t.Errorf("%s radii %v: %d of 400 in the vicinity; the test needs both kinds", l.Name(), radii, in)
			}
		}
	}
}

// A reused graph counts the positions of the search running, not the
// memory kept from an earlier, larger one: else every search after one
// that outgrew the budget would stop at once.
func TestGraphBytesAfterReset(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Resolve(t, "microban:10")[0])
	if err != nil {
		t.Fatal(err)
	}
	var g graph
	g.reset(b)
	p := b.Start()
	key := p.PackExact(nil)
	g.store.Intern(key, p.HashExact())
	g.add(noParent, sokoban.Push{}, 0)
	one := g.bytes()
	if one <= 0 {
		t.Fatalf("a graph of one position counts %d bytes", one)
	}
	for s := range sokoban.Square(b.N) {
		if !p.HasBox(s) {
			p.SetPlayer(s)
			g.store.Intern(p.PackExact(key[:0]), p.HashExact())
			g.add(0, sokoban.Push{}, 1)
			g.open.push(item{id: uint32(s)})
		}
	}
	if big := g.bytes(); big < 10*one {
		t.Fatalf("%d positions: %d bytes, one: %d", len(g.parent), big, one)
	}
	g.reset(b)
	g.store.Intern(b.Start().PackExact(nil), b.Start().HashExact())
	g.add(noParent, sokoban.Push{}, 0)
	if got := g.bytes(); got != one {
		t.Errorf("after reset, one position: %d bytes, want %d", got, one)
	}
}

// BenchmarkVicinitySearch searches the vicinity of four stretches of 32
// pushes of greedy's solution of XSokoban 2 (ten boxes), each to its end,
// over exact squares (search) and for fewer pushes alone (searchPushes):
// the same work on every run, so expansions per second measure each
// search's speed alone, and expansions per op compare the two.
func BenchmarkVicinitySearch(b *testing.B) {
	l := testlevel.Resolve(b, "xsokoban90:2")[0]
	board, pushes := greedyPushes(b, l)
	for _, pushesOnly := range []bool{false, true} {
		name := "exact"
		if pushesOnly {
			name = "pushes"
		}
		b.Run(name, func(b *testing.B) {
			var expanded int64
			start := time.Now()
			for b.Loop() {
				o := newOptimizer(context.Background(), board, Pushes, DefaultRadii, DefaultMemory, nil)
				o.best = pushes
				for i := 0; i+32 <= len(pushes) && i < 4*32; i += 32 {
					p := board.Start()
					for _, m := range pushes[:i] {
						p.Apply(m)
					}
					var next *sokoban.Push
					if i+32 < len(pushes) {
						next = &pushes[i+32]
					}
					if pushesOnly {
						o.searchPushes(p, pushes[i:i+32], next, o.radii)
					} else {
						o.search(p, pushes[i:i+32], next, o.radii)
					}
				}
				expanded += o.expanded
			}
			b.ReportMetric(float64(expanded)/time.Since(start).Seconds(), "expanded/s")
			b.ReportMetric(float64(expanded)/float64(b.N), "expanded/op")
		})
	}
}
