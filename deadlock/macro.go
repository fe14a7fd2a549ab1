package deadlock

import (
	"context"
	"slices"

	"soko/sokoban"
)

// Tunnel bits of Macros.Tunnel.
const (
	// TunnelVertical marks a square with walls left and right: a box on it
	// can only move up or down, and the player only passes it that way.
	TunnelVertical uint8 = 1 << iota
	// TunnelHorizontal marks a square with walls above and below.
	TunnelHorizontal
)

// Macros holds the static tables behind tunnel and goal-room macro moves
// (001 §2.1.2): tunnel squares, 1 wide corridors that split the board and
// can be crossed as one step, and goal rooms, areas holding goals that are
// entered through few doors.
type Macros struct {
	b *sokoban.Board

	// Tunnel has, per square, TunnelVertical and/or TunnelHorizontal.
	Tunnel []uint8
	// Room is, per square, the index in Rooms of the room holding it, or -1.
	Room  []int32
	Rooms []Room
}

// Room is a goal room: a connected area of non-tunnel squares with at
// least one goal, entered only through its Entrances, tunnel squares next
// to it (at most MaxEntrances of them, at least one). An area that holds
// every non-tunnel square of the board is not a room.
type Room struct {
	Squares   []sokoban.Square
	Goals     []sokoban.Square
	Entrances []sokoban.Square
	// Fill is the room's packing order for the goal-room macro, or nil.
	Fill *Fill
}

// MaxEntrances is the most entrances a goal room may have.
const MaxEntrances = 2

// NewMacros computes the tunnel and room tables of b. The tables take
// O(N) time; the rooms' packing orders (Fill) take more, up to about 0.1 s
// on the largest boards. NewMacros returns ctx.Err() when ctx is done
// before they are complete.
func NewMacros(ctx context.Context, b *sokoban.Board) (*Macros, error) {
	m := &Macros{b: b, Tunnel: make([]uint8, b.N), Room: make([]int32, b.N)}
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		m.Room[s] = -1
		if b.Next(s, 2) == sokoban.None && b.Next(s, 3) == sokoban.None {
			m.Tunnel[s] |= TunnelVertical
		}
		if b.Next(s, 0) == sokoban.None && b.Next(s, 1) == sokoban.None {
			m.Tunnel[s] |= TunnelHorizontal
		}
	}
	tunnels := 0
	for _, t := range m.Tunnel {
		if t != 0 {
			tunnels++
		}
	}
	// Areas: connected components of non-tunnel squares.
	const (
		unseen  = -1
		notRoom = -2
	)
	comp := make([]int32, b.N)
	for i := range comp {
		comp[i] = unseen
	}
	var stack []sokoban.Square
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if comp[s] != unseen || m.Tunnel[s] != 0 {
			continue
		}
		id := int32(len(m.Rooms))
		var r Room
		seenDoor := map[sokoban.Square]bool{}
		comp[s] = id
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.Squares = append(r.Squares, t)
			if b.IsGoal(t) {
				r.Goals = append(r.Goals, t)
			}
			for d := range sokoban.Dirs {
				n := b.Next(t, d)
				switch {
				case n == sokoban.None:
				case m.Tunnel[n] != 0:
					if !seenDoor[n] {
						seenDoor[n] = true
						r.Entrances = append(r.Entrances, n)
					}
				case comp[n] == unseen:
					comp[n] = id
					stack = append(stack, n)
				}
			}
		}
		if len(r.Goals) == 0 || len(r.Entrances) == 0 || len(r.Entrances) > MaxEntrances || len(r.Squares)+tunnels == b.N {
			// no goals, too many doors, or every square but the tunnels
			for _, t := range r.Squares {
				comp[t] = notRoom
			}
			continue
		}
		slices.Sort(r.Squares)
		slices.Sort(r.Goals)
		slices.Sort(r.Entrances)
		for _, t := range r.Squares {
			m.Room[t] = id
		}
		m.Rooms = append(m.Rooms, r)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var a *roomArea
	if len(m.Rooms) > 0 {
		a = newRoomArea(ctx, b)
	}
	for i := range m.Rooms {
		f, err := newFill(a, &m.Rooms[i], m.Room, int32(i))
		if err != nil {
			return nil, err
		}
		m.Rooms[i].Fill = f
	}
	return m, nil
}

// Bytes returns the memory the tables take.
func (m *Macros) Bytes() int64 {
	n := 5 * int64(len(m.Tunnel))
	for _, r := range m.Rooms {
		n += 4 * int64(len(r.Squares)+len(r.Goals)+len(r.Entrances))
		if r.Fill != nil {
			for _, p := range r.Fill.Paths {
				n += 8 * int64(len(p))
			}
		}
	}
	return n
}

// InTunnel reports whether a box on s can only move along the axis of d
// (walls on both sides across d).
func (m *Macros) InTunnel(s sokoban.Square, d sokoban.Dir) bool {
	if d < 2 {
		return m.Tunnel[s]&TunnelVertical != 0
	}
	return m.Tunnel[s]&TunnelHorizontal != 0
}

// CarriesOn reports whether the tunnel macro of 001 §2.1.2 pushes a box on
// from s, where a push in direction d put it: s is a tunnel square along
// d, off any goal, that splits the board (sokoban.Board.Splits). Then the
// player, behind the box, can never reach the squares in front while it is
// there, so pushing it on at once keeps every solution, optimal ones too;
// without the split a player may walk round and push the box back.
func (m *Macros) CarriesOn(s sokoban.Square, d sokoban.Dir) bool {
	return !m.b.IsGoal(s) && m.InTunnel(s, d) && m.b.Splits(s, d)
}
