package sokoban_test

import (
	"slices"
	"strings"
	"testing"

	"soko/level"
	"soko/sokoban"
)

// TestRegionAfterMatchesFloodFill checks Region.After and AfterPull against
// a flood fill (Position.Reach) on every push and pull of thousands of
// states of Microban levels (breadth-first from the start), and that they
// answer most of them: a Region that always said "cannot tell" would pass
// the first check alone.
func TestRegionAfterMatchesFloodFill(t *testing.T) {
	var answered, asked, pullsAnswered, pulls int
	for _, b := range boards(t, "microban:1-40,93,144,153") {
		l := b.Level
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
			// Every pull: the box on sq moves to the square the player
			// stands on, and the player steps back beyond it.
			for _, sq := range slices.Clone(p.BoxSquares()) {
				for d := range sokoban.Dirs {
					to := b.Next(sq, d)
					if to < 0 || !r.Has(to) {
						continue
					}
					back := b.Next(to, d)
					if back < 0 || p.HasBox(back) {
						continue
					}
					p.Apply(sokoban.Push{Box: sq, Dir: d})
					p.SetPlayer(back)
					got, ok := r.AfterPull(p, sq, to)
					want := p.Reach()
					pulls++
					if ok {
						pullsAnswered++
						if got != want {
							t.Fatalf("%s, state %d, box pulled from %d to %d: AfterPull says %d, flood fill %d\n%s", l.Name(), id, sq, to, got, want, strings.Join(p.Rows(), "\n"))
						}
					}
					p.Apply(sokoban.Push{Box: to, Dir: d ^ 1}) // back, the player on to: the same region
					r.Of(p)
				}
			}
		}
	}
	t.Logf("After answered %d of %d pushes, AfterPull %d of %d pulls", answered, asked, pullsAnswered, pulls)
	if asked < 1000 || pulls < 1000 || answered*10 < asked*8 || pullsAnswered*10 < pulls*8 {
		t.Errorf("After answered only %d of %d pushes, AfterPull %d of %d pulls", answered, asked, pullsAnswered, pulls)
	}
}

// TestFillLabelsAreas fills the areas of free squares (no box) at the start
// of Microban levels, one from each square no earlier fill reached, and
// checks them against a brute-force closure: each area holds its seed, is
// closed under free neighbours, and the one holding the player is the
// region Reach finds.
func TestFillLabelsAreas(t *testing.T) {
	for _, b := range boards(t, "microban:1-155") {
		l := b.Level
		p := b.Start()
		free := func(s sokoban.Square) bool { return !p.HasBox(s) }
		m := sokoban.NewMarks(b.N)
		seen := 0
		for s := range sokoban.Square(b.N) {
			if m.Has(s) || !free(s) {
				continue
			}
			m.Add(s)
			area := b.Fill([]sokoban.Square{s}, m, free)
			seen += len(area)
			for _, x := range area {
				for d := range sokoban.Dirs {
					if n := b.Next(x, d); n != sokoban.None && free(n) && !slices.Contains(area, n) {
						t.Fatalf("%s: area of square %d holds %d but not its free neighbour %d", l.Name(), s, x, n)
					}
				}
			}
			if slices.Contains(area, p.Player()) {
				for x := range sokoban.Square(b.N) {
					if slices.Contains(area, x) != p.Reachable(x) {
						t.Fatalf("%s: square %d: in the player's area %v, reachable %v", l.Name(), x, slices.Contains(area, x), p.Reachable(x))
					}
				}
			}
		}
		if seen != b.N-b.Boxes() {
			t.Fatalf("%s: %d squares in areas, %d free", l.Name(), seen, b.N-b.Boxes())
		}
	}
}

// TestKeyHash: the hash of a packed key is the position's hash, on boards
// of one and of two bytes a square (a room of 288), so a store of one
// searcher finds what another packed.
func TestKeyHash(t *testing.T) {
	rows := []string{strings.Repeat("#", 20)}
	for y := range 16 {
		row := "#" + strings.Repeat(" ", 18) + "#"
		switch y {
		case 3:
			row = "#  @ $  .         #"
		case 9:
			row = "#      $     .    #"
		}
		rows = append(rows, row)
	}
	rows = append(rows, strings.Repeat("#", 20))
	ls, err := level.ParseString(strings.Join(rows, "\n"), "room")
	if err != nil {
		t.Fatal(err)
	}
	room, err := sokoban.NewBoard(ls[0])
	if err != nil || room.KeySize() != 2*(room.Boxes()+1) {
		t.Fatalf("the room is not a board of two bytes a square: %v", err)
	}
	for _, b := range append(boards(t, "microban:1-20,144"), room) {
		p := b.Start()
		pushes := p.Pushes(nil, nil)
		for _, m := range append(pushes, sokoban.Push{Box: sokoban.None}) {
			if m.Box != sokoban.None {
				p.Apply(m)
			}
			if got, want := b.KeyHash(p.Pack(nil)), p.Hash(); got != want {
				t.Fatalf("%s: KeyHash %x, Hash %x", b.Level.Name(), got, want)
			}
			if m.Box != sokoban.None {
				p.Undo(m)
			}
		}
	}
}
