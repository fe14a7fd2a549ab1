package sokoban_test

import (
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestRegionAfterMatchesFloodFill checks Region.After against a flood fill
// (Position.Reach) on every push of thousands of states of Microban levels
// (breadth-first from the start), and that it answers most of them: a
// Region that always said "cannot tell" would pass the first check alone.
func TestRegionAfterMatchesFloodFill(t *testing.T) {
	var answered, asked int
	for _, l := range testlevel.Resolve(t, "microban:1-40,93,144,153") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		r := sokoban.NewRegion(b)
		p := b.Start()
		store := sokoban.NewStore(b.KeySize())
		store.Intern(p.Pack(nil), p.Hash())
		var pushes []sokoban.Push
		for id := uint32(0); int(id) < store.Len() && id < 3000; id++ {
			p.Unpack(store.Key(id))
			q := p.Clone()
			r.Of(p)
			if p.Reach() != q.Reach() {
				t.Fatalf("%s: canonical square %d after Of, flood fill %d", l.Name(), p.Reach(), q.Reach())
			}
			size := 0
			for s := sokoban.Square(0); int(s) < b.N; s++ {
				if want := q.Reachable(s) && !q.HasBox(s); r.Has(s) != want || p.Reachable(s) != q.Reachable(s) {
					t.Fatalf("%s: region and flood fill differ on square %d", l.Name(), s)
				}
				if r.Has(s) {
					size++
				}
			}
			if r.Size() != size {
				t.Fatalf("%s: region size %d, counted %d", l.Name(), r.Size(), size)
			}
			check := func(from, to sokoban.Square) {
				t.Helper()
				got, ok := r.After(p, from, to)
				want := p.Reach()
				asked++
				if !ok {
					return
				}
				answered++
				if got != want {
					t.Fatalf("%s, state %d, box from %d to %d: After says %d, flood fill %d\n%s", l.Name(), id, from, to, got, want, strings.Join(p.Rows(), "\n"))
				}
				if p.HashAt(got) != p.Hash() || string(p.PackAt(nil, got)) != string(p.Pack(nil)) {
					t.Fatalf("%s: HashAt or PackAt differ from Hash or Pack", l.Name())
				}
			}
			pushes = p.Pushes(pushes[:0], nil)
			for _, m := range pushes {
				p.Apply(m)
				check(m.Box, b.Next(m.Box, m.Dir))
				store.Intern(p.Pack(nil), p.Hash())
				// Push the same box on in a line, as the tunnel macro does.
				var more []sokoban.Push
				for to := b.Next(m.Box, m.Dir); len(more) < 3; to = b.Next(to, m.Dir) {
					if front := b.Next(to, m.Dir); front < 0 || p.HasBox(front) {
						break
					}
					more = append(more, sokoban.Push{Box: to, Dir: m.Dir})
					p.Apply(more[len(more)-1])
					check(m.Box, b.Next(to, m.Dir))
				}
				for i := len(more) - 1; i >= 0; i-- {
					p.Undo(more[i])
				}
				p.Undo(m)
			}
		}
	}
	t.Logf("After answered %d of %d pushes", answered, asked)
	if answered*10 < asked*8 {
		t.Errorf("After answered only %d of %d pushes", answered, asked)
	}
}
