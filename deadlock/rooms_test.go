package deadlock

import (
	"context"
	"slices"
	"strings"
	"testing"

	"soko/levels"
	"soko/sokoban"
)

func TestFillOrder(t *testing.T) {
	b := board(t,
		"########",
		"#@ $ $ #",
		"# $  $ #",
		"#### ###",
		"#      #",
		"#.    .#",
		"#.    .#",
		"########",
	)
	m := newMacros(t, b)
	if len(m.Rooms) != 1 || m.Rooms[0].Fill == nil {
		t.Fatalf("rooms %d, want one with a fill", len(m.Rooms))
	}
	f := m.Rooms[0].Fill
	if f.Entrance != b.At(4, 3) || f.Outside != b.At(4, 2) || f.In != sokoban.Dir(1) {
		t.Errorf("entrance %v outside %v in %v", f.Entrance, f.Outside, f.In)
	}
	// Farthest goals first: the bottom row (6 and 5 pushes from the
	// entrance), then the row above (5 and 4); ties go to the smaller square.
	want := []sokoban.Square{b.At(1, 6), b.At(6, 6), b.At(1, 5), b.At(6, 5)}
	if !slices.Equal(f.Order, want) {
		t.Errorf("order %v, want %v", f.Order, want)
	}
	var lens []int
	for _, p := range f.Paths {
		lens = append(lens, len(p))
	}
	if !slices.Equal(lens, []int{6, 5, 5, 4}) {
		t.Errorf("path lengths %v, want [6 5 5 4]", lens)
	}
	checkFill(t, b, &m.Rooms[0])
}

// Every fill of every embedded level, replayed with the core's own push
// rules on the whole board: each path is legal in the position it is meant
// for, puts the box on its goal, lets the player walk back out, and
// RoomPath offers it there and nowhere else.
func TestFillsReplay(t *testing.T) {
	fills := 0
	for _, name := range []string{"microban", "microban3", "xsokoban90", "boxoban-medium-valid-000"} {
		c, err := levels.Collection(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range c.Levels {
			b, err := sokoban.NewBoard(l)
			if err != nil {
				t.Fatal(err)
			}
			m := newMacros(t, b)
			for i := range m.Rooms {
				if m.Rooms[i].Fill != nil {
					fills++
					checkFill(t, b, &m.Rooms[i])
				}
			}
		}
	}
	if fills < 50 {
		t.Errorf("only %d fills on the embedded levels", fills)
	}
}

// checkFill replays room r's fill step by step.
func checkFill(t *testing.T, b *sokoban.Board, r *Room) {
	t.Helper()
	m := newMacros(t, b)
	f := r.Fill
	inRoom := map[sokoban.Square]bool{f.Entrance: true, f.Outside: true}
	for _, s := range r.Squares {
		inRoom[s] = true
	}
	// Boxes not yet in the room wait outside it, off the entrance.
	var parking []sokoban.Square
	for s := sokoban.Square(0); int(s) < b.N && len(parking) < b.Boxes(); s++ {
		if !inRoom[s] {
			parking = append(parking, s)
		}
	}
	for i, g := range f.Order {
		boxes := append(slices.Clone(f.Order[:i]), f.Entrance)
		if len(parking) < b.Boxes()-len(boxes) {
			t.Fatalf("%s: no room to park boxes", b.Level.Name())
		}
		boxes = append(boxes, parking[:b.Boxes()-len(boxes)]...)
		p := b.PositionOf(boxes, f.Outside)
		path := m.RoomPath(p, f.Entrance, f.In)
		if !slices.Equal(path, f.Paths[i]) {
			t.Fatalf("%s: RoomPath at step %d = %v, want %v", b.Level.Name(), i, path, f.Paths[i])
		}
		if m.RoomPath(p, f.Entrance, f.In^1) != nil {
			t.Errorf("%s: macro offered for a push out of the room", b.Level.Name())
		}
		box := f.Entrance
		for _, q := range path {
			if q.Box != box || !p.CanPush(q) {
				t.Fatalf("%s: step %d: push %v illegal", b.Level.Name(), i, q)
			}
			box = p.Apply(q)
		}
		if box != g || !p.Reachable(f.Outside) {
			t.Fatalf("%s: step %d: box ends on %v, want %v; player out: %v", b.Level.Name(), i, box, g, p.Reachable(f.Outside))
		}
		if i+1 < len(f.Order) {
			// With a box on a later goal instead, the room is out of order.
			wrong := append(slices.Clone(f.Order[:i]), f.Order[i+1], f.Entrance)
			wrong = append(wrong, parking[:b.Boxes()-len(wrong)]...)
			if m.RoomPath(b.PositionOf(wrong, f.Outside), f.Entrance, f.In) != nil {
				t.Errorf("%s: macro offered with the room out of order", b.Level.Name())
			}
		}
	}
}

// bigRoom returns a 128×128 board whose right part, some 11,000 squares
// with goals goals, is a goal room entered through one door.
func bigRoom(t *testing.T, goals int) *sokoban.Board {
	rows := make([]string, 128)
	for y := range rows {
		r := []byte(strings.Repeat(" ", 128))
		for x := range r {
			if x == 0 || y == 0 || x == 127 || y == 127 || x == 40 && y != 60 {
				r[x] = '#'
			}
		}
		if y == 2 {
			r[2] = '@'
		}
		if y >= 5 && y < 5+goals {
			r[10] = '$'
		}
		if y >= 30 && y < 30+2*goals && y%2 == 0 {
			r[90] = '.'
		}
		rows[y] = string(r)
	}
	return board(t, rows...)
}

// TestFillBounded: working out the packing order of a huge room would take
// hours; it is given up after fillWork steps, and it stops when the context
// is cancelled.
func TestFillBounded(t *testing.T) {
	b := bigRoom(t, 4)
	m := newMacros(t, b)
	if len(m.Rooms) != 1 || len(m.Rooms[0].Goals) != 4 || len(m.Rooms[0].Entrances) != 1 {
		t.Fatalf("want one room with 4 goals and one door, got %+v", m.Rooms)
	}
	if m.Rooms[0].Fill != nil {
		t.Error("the room was too big to order, yet it has a packing order")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, err := NewMacros(ctx, b); err != context.Canceled || m != nil {
		t.Errorf("cancelled: %v, %v", m, err)
	}
}
