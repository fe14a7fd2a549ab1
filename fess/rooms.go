package fess

import "soko/sokoban"

// rooms is Festival's room connectivity (../shared/research/strength.md
// §1.2, after the FESS paper's "room connectivity": how many room links are
// obstructed by boxes). A room is a connected area of squares that lie in
// 2×2 blocks of floor, of at least two such blocks; two rooms are linked
// when a lone player can walk from one to the other through squares of no
// other room. A position's score is the number of links that its boxes
// break: from each room, walking over free squares of its own and of no
// room, the player no longer reaches a room it is linked to.
type rooms struct {
	b     *sokoban.Board
	room  []int16 // square -> room, or -1
	links [][]bool
	n     int
	stamp []uint32
	epoch uint32
	stack []sokoban.Square
	start [][]sokoban.Square // each room's squares
}

// newRooms finds the rooms and their links, or returns nil when the board
// has fewer than two rooms.
func newRooms(b *sokoban.Board) *rooms {
	r := &rooms{b: b, room: make([]int16, b.N), stamp: make([]uint32, b.N)}
	inBlock := make([]bool, b.N)
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		r.room[s] = -1
		right, down := b.Next(s, 3), b.Next(s, 1)
		if right == sokoban.None || down == sokoban.None || b.Next(right, 1) == sokoban.None {
			continue
		}
		for _, t := range [4]sokoban.Square{s, right, down, b.Next(right, 1)} {
			inBlock[t] = true
		}
	}
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		if !inBlock[s] || r.room[s] >= 0 {
			continue
		}
		id := int16(r.n)
		area := []sokoban.Square{s}
		r.room[s] = id
		for h := 0; h < len(area); h++ {
			for d := sokoban.Dir(0); d < 4; d++ {
				if c := b.Next(area[h], d); c != sokoban.None && inBlock[c] && r.room[c] < 0 {
					r.room[c] = id
					area = append(area, c)
				}
			}
		}
		if len(area) <= 4 { // a lone block is no room
			for _, t := range area {
				r.room[t] = -2
			}
			continue
		}
		r.start = append(r.start, area)
		r.n++
	}
	for s := range r.room {
		if r.room[s] == -2 {
			r.room[s] = -1
		}
	}
	if r.n < 2 {
		return nil
	}
	r.links = make([][]bool, r.n)
	for i := range r.links {
		r.links[i] = r.reach(i, nil)
	}
	return r
}

// reach returns the rooms a player walking from room i over free squares
// of room i and of no room reaches (p nil: the empty board).
func (r *rooms) reach(i int, p *sokoban.Position) []bool {
	r.epoch++
	if r.epoch == 0 {
		clear(r.stamp)
		r.epoch = 1
	}
	e, b := r.epoch, r.b
	got := make([]bool, r.n)
	stack := r.stack[:0]
	for _, s := range r.start[i] {
		if p == nil || !p.HasBox(s) {
			r.stamp[s] = e
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := sokoban.Dir(0); d < 4; d++ {
			c := b.Next(t, d)
			if c == sokoban.None || r.stamp[c] == e || (p != nil && p.HasBox(c)) {
				continue
			}
			r.stamp[c] = e
			if o := r.room[c]; o >= 0 && int(o) != i {
				got[o] = true
				continue
			}
			stack = append(stack, c)
		}
	}
	r.stack = stack
	return got
}

// broken returns the number of links p's boxes break.
func (r *rooms) broken(p *sokoban.Position) int {
	if r == nil {
		return 0
	}
	n := 0
	for i := 0; i < r.n; i++ {
		got := r.reach(i, p)
		for j := i + 1; j < r.n; j++ {
			if r.links[i][j] && !got[j] {
				n++
			}
		}
	}
	return n
}

// bytes returns the memory the tables take.
func (r *rooms) bytes() int64 {
	if r == nil {
		return 0
	}
	return int64(r.b.N)*(2+4+4) + int64(r.n*r.n)
}
