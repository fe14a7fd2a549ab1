package search

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/sokoban"
	"soko/solver"
)

// TestSymmetryTables checks the symmetries found on levels with eight, four,
// two and one (none kept) of them: each maps floor to floor, goals to goals
// and neighbours to neighbours in the mapped direction, and the inverses
// undo them.
func TestSymmetryTables(t *testing.T) {
	for spec, want := range map[string]int{"microban:93": 8, "microban:105": 4, "microban:7": 2, "microban:1": 0} {
		l := testlevel.Resolve(t, spec)[0]
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		sy := newSymmetry(b)
		if got := 0; sy != nil {
			got = len(sy.perm)
			if got != want {
				t.Errorf("%s: %d symmetries, want %d", spec, got, want)
			}
		} else if want != 0 {
			t.Errorf("%s: no symmetry found, want %d", spec, want)
		}
		if sy == nil {
			continue
		}
		for k, perm := range sy.perm {
			for s := range sokoban.Square(b.N) {
				ts := perm[s]
				if b.IsGoal(ts) != b.IsGoal(s) || sy.inv[k][ts] != s {
					t.Fatalf("%s: transform %d maps %d to %d: goal %v→%v, inverse %d", spec, k, s, ts, b.IsGoal(s), b.IsGoal(ts), sy.inv[k][ts])
				}
				for d := range sokoban.Dirs {
					n, tn := b.Next(s, d), b.Next(ts, sy.dir[k][d])
					if n == sokoban.None && tn != sokoban.None || n != sokoban.None && tn != perm[n] {
						t.Fatalf("%s: transform %d: neighbour %d of %d maps to %d, want %d", spec, k, d, s, tn, n)
					}
					if sy.invDir[k][sy.dir[k][d]] != d {
						t.Fatalf("%s: transform %d: direction %d does not map back", spec, k, d)
					}
				}
			}
		}
	}
}

// TestSymmetryCanon walks at random from the start of symmetric levels and
// checks that every image of each position gets the same stored key, and
// that the transform canon reports makes that key from the position.
func TestSymmetryCanon(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, l := range testlevel.Resolve(t, "microban:93,105,7") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		sy := newSymmetry(b)
		p := b.Start()
		var pushes []sokoban.Push
		for range 300 {
			key, h, k := sy.canon(nil, p)
			for j, perm := range sy.perm {
				var boxes []sokoban.Square
				for _, s := range p.BoxSquares() {
					boxes = append(boxes, perm[s])
				}
				img := b.PositionOf(boxes, perm[p.Player()])
				got, gh, _ := sy.canon(nil, img)
				if !bytes.Equal(got, key) || gh != h {
					t.Fatalf("%s: image %d of %v is stored as %v, the position as %v", l.Name(), j, p.Rows(), got, key)
				}
			}
			// The stored key is the image of p under transform k.
			q := b.Start()
			q.Unpack(key)
			want := map[sokoban.Square]bool{}
			for _, s := range p.BoxSquares() {
				want[sy.perm[k][s]] = true
			}
			for _, s := range q.BoxSquares() {
				if !want[s] {
					t.Fatalf("%s: stored box %d is not an image of a box under transform %d", l.Name(), s, k)
				}
			}
			if !q.Reachable(sy.perm[k][p.Player()]) {
				t.Fatalf("%s: the stored player is not in the image of the player's region", l.Name())
			}
			if pushes = p.Pushes(pushes[:0], nil); len(pushes) == 0 {
				p = b.Start()
				continue
			}
			p.Apply(pushes[rng.IntN(len(pushes))])
		}
	}
}

// TestSymmetryCanonChild checks canonChild, which takes the player's
// region from the parent's tree, against canon, which fills it, on random
// walks on symmetric levels: for every push from each position, and for
// pushes of two and three squares in a line where they are legal, the key,
// hash and transform agree.
func TestSymmetryCanonChild(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, l := range testlevel.Resolve(t, "microban:93,105,7,144") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		sy := newSymmetry(b)
		p := b.Start()
		var pushes []sokoban.Push
		for range 400 {
			sy.expand(p)
			pushes = p.Pushes(pushes[:0], nil)
			for _, m := range pushes {
				to := p.Apply(m)
				var moved []sokoban.Push
				for steps := 1; steps <= 3; steps++ {
					want, wh, wt := sy.canon(nil, p)
					got, gh, gt := sy.canonChild(nil, p, m.Box, to)
					if !bytes.Equal(got, want) || gh != wh || gt != wt {
						t.Fatalf("%s: push %v by %d of %v: canonChild %v %x %d, canon %v %x %d", l.Name(), m, steps, p.Rows(), got, gh, gt, want, wh, wt)
					}
					next := sokoban.Push{Box: to, Dir: m.Dir}
					if !p.CanPush(next) {
						break
					}
					moved = append(moved, next)
					to = p.Apply(next)
				}
				for i := len(moved) - 1; i >= 0; i-- {
					p.Undo(moved[i])
				}
				p.Undo(m)
			}
			if len(pushes) == 0 {
				p = b.Start()
				continue
			}
			p.Apply(pushes[rng.IntN(len(pushes))])
		}
	}
}

// TestAStarSymmetry solves symmetric levels with and without storing
// positions up to symmetry: the push counts agree (the solutions are
// verified by solver.Run), and with it A* expands fewer states in all.
func TestAStarSymmetry(t *testing.T) {
	var expanded [2]int64
	for _, l := range testlevel.Resolve(t, "microban:7,31,53,90,105,110,142,145,146") {
		var res [2]solver.Result
		for i, on := range []string{"0", "1"} {
			r, err := solver.Run(context.Background(), AStar{}, l, solver.Options{
				Budget: solver.Budget{Time: time.Minute}, Params: map[string]string{"symmetry": on}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != solver.Solved {
				t.Fatalf("%s symmetry=%s: %v", l.Name(), on, r.Status)
			}
			res[i] = r
			expanded[i] += r.Stats.Expanded
		}
		if res[0].Pushes != res[1].Pushes {
			t.Errorf("%s: %d pushes without symmetry, %d with", l.Name(), res[0].Pushes, res[1].Pushes)
		}
	}
	if expanded[1] >= expanded[0] {
		t.Errorf("%d states expanded with symmetry, %d without", expanded[1], expanded[0])
	}
}

// BenchmarkSymmetryChildren keys every child of the positions of a random
// walk on Microban 144 (four symmetries), with a flood fill per child
// (canon) and from the parent's tree (expand, then canonChild), and
// reports children keyed per second.
func BenchmarkSymmetryChildren(b *testing.B) {
	l := testlevel.Resolve(b, "microban:144")[0]
	board, err := sokoban.NewBoard(l)
	if err != nil {
		b.Fatal(err)
	}
	sy := newSymmetry(board)
	rng := rand.New(rand.NewPCG(7, 8))
	var parents []*sokoban.Position
	p := board.Start()
	var pushes []sokoban.Push
	for range 200 {
		parents = append(parents, p.Clone())
		if pushes = p.Pushes(pushes[:0], nil); len(pushes) == 0 {
			p = board.Start()
			continue
		}
		p.Apply(pushes[rng.IntN(len(pushes))])
	}
	for _, tree := range []bool{false, true} {
		name := "canon"
		if tree {
			name = "canonChild"
		}
		b.Run(name, func(b *testing.B) {
			var key []byte
			children := 0
			for b.Loop() {
				for _, q := range parents {
					if tree {
						sy.expand(q)
					}
					pushes = q.Pushes(pushes[:0], nil)
					for _, m := range pushes {
						to := q.Apply(m)
						if tree {
							key, _, _ = sy.canonChild(key[:0], q, m.Box, to)
						} else {
							key, _, _ = sy.canon(key[:0], q)
						}
						q.Undo(m)
						children++
					}
				}
			}
			b.ReportMetric(float64(children)/b.Elapsed().Seconds(), "children/s")
		})
	}
}
