package deadlock

import (
	"slices"
	"testing"

	"soko/level"
	"soko/sokoban"
)

func TestTunnels(t *testing.T) {
	b := board(t,
		"#########",
		"#@ $    #",
		"### #####",
		"  # #",
		"  # ###",
		"  #.  #",
		"  #####",
	)
	m := newMacros(t, b)
	at := func(x, y int) sokoban.Square { return b.At(x, y) }
	// The vertical corridor at x = 3, rows 2-4.
	for y := 2; y <= 4; y++ {
		if m.Tunnel[at(3, y)] != TunnelVertical {
			t.Errorf("(3,%d): Tunnel = %b, want vertical", y, m.Tunnel[at(3, y)])
		}
	}
	// The top row is 1 high: horizontal tunnel squares, except above the
	// corridor's entrance.
	if m.Tunnel[at(5, 1)] != TunnelHorizontal || m.Tunnel[at(3, 1)] != 0 {
		t.Errorf("top row: %b %b", m.Tunnel[at(5, 1)], m.Tunnel[at(3, 1)])
	}
	// A box there moves only along the corridor, which splits the board:
	// the tunnel macro carries a box pushed down into it on.
	if !m.InTunnel(at(3, 2), level.Down) || m.InTunnel(at(3, 2), level.Right) {
		t.Errorf("(3,2): InTunnel down %v, right %v; want true, false", m.InTunnel(at(3, 2), level.Down), m.InTunnel(at(3, 2), level.Right))
	}
	if !m.CarriesOn(at(3, 2), level.Down) || m.CarriesOn(at(3, 2), level.Right) {
		t.Errorf("(3,2): CarriesOn down %v, right %v; want true, false", m.CarriesOn(at(3, 2), level.Down), m.CarriesOn(at(3, 2), level.Right))
	}
}

func TestRooms(t *testing.T) {
	b := board(t,
		"##########",
		"#@ $  #..#",
		"#  $    .#",
		"#  $  #..#",
		"##########",
	)
	// The doorway at (6,2), walls above and below, is a horizontal tunnel
	// square and the goal room's only entrance.
	m := newMacros(t, b)
	if len(m.Rooms) != 1 {
		t.Fatalf("%d rooms, want 1", len(m.Rooms))
	}
	r := m.Rooms[0]
	if len(r.Goals) != 5 || len(r.Squares) != 6 || !slices.Equal(r.Entrances, []sokoban.Square{b.At(6, 2)}) {
		t.Errorf("room: %d goals, %d squares, entrances %v", len(r.Goals), len(r.Squares), r.Entrances)
	}
	if m.Room[b.At(8, 2)] != 0 || m.Room[b.At(1, 1)] != -1 {
		t.Errorf("Room table wrong")
	}
	// A box entering the room can only be pushed on to (8,2): the player
	// cannot get past it at (7,2). So the corner goals can never be filled
	// and there is no packing order.
	if r.Fill != nil {
		t.Errorf("room has a packing order %v", r.Fill.Order)
	}
	// An open room with no doorway is not a goal room.
	b2 := board(t,
		"######",
		"#@$ .#",
		"######",
	)
	if n := len(newMacros(t, b2).Rooms); n != 0 {
		t.Errorf("corridor level: %d rooms", n)
	}
}
