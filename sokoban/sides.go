package sokoban

import "context"

// Sides tells, for a lone box on a square, which part of the board around
// it holds a given square: with a box on s (and no other), the player walks
// from p to exactly the sides of s in p's part. Parts are named by a side
// label, the first direction whose neighbour of s lies in the part (as in
// Board.Splits). It rests on the same depth-first numbering of the floor
// (Cuts) as Splits, and answers in O(1).
type Sides struct {
	b    *Board
	cuts *Cuts
	keys []Square // keys[s·4+d]: Cuts.side of s's neighbour in direction d
	// only[s] is the label of s's one part when a box on s cuts nothing
	// off, else -1: Of needs no tree for it.
	only []int8
}

// NewSides prepares Sides for b.
func (b *Board) NewSides() *Sides {
	sd := &Sides{b: b, keys: make([]Square, 4*b.N), only: make([]int8, b.N)}
	if b.N == 0 {
		return sd
	}
	sd.cuts = b.floorCuts()
	for s := Square(0); int(s) < b.N; s++ {
		sd.only[s] = -1
		for d := range 4 {
			k := sd.cuts.side(b, s, b.next[s][d])
			sd.keys[int(s)*4+d] = k
			switch first := sd.only[s]; {
			case k == partWall || first == -2:
			case first == -1:
				sd.only[s] = int8(d)
			case sd.keys[int(s)*4+int(first)] != k:
				sd.only[s] = -2 // two parts
			}
		}
		sd.only[s] = max(sd.only[s], -1)
	}
	return sd
}

// partWall is side's key of a wall.
const partWall Square = -2

// side returns a key of the part of the board without s that holds its
// neighbour n (Part), or partWall when n is None.
func (c *Cuts) side(b *Board, s, n Square) Square {
	if n == None {
		return partWall
	}
	return c.Part(b, s, n)
}

// Bytes returns the memory Sides takes.
func (sd *Sides) Bytes() int64 { return int64(sd.b.N) * (CutsBytes + 4*4 + 1) }

// Of returns the label of the part of the board without s that holds p,
// for squares s != p: the first direction d such that the neighbour of s
// in direction d is in that part. Every part touches s, so there is one.
func (sd *Sides) Of(s, p Square) int {
	if d := sd.only[s]; d >= 0 {
		return int(d)
	}
	key := sd.cuts.Part(sd.b, s, p)
	ks := sd.keys[int(s)*4 : int(s)*4+4]
	for d, k := range ks {
		if k == key {
			return d
		}
	}
	return 0 // unreachable for s != p
}

// PullDistancesBySide is PullDistances with the player's side kept: for
// every goal a row indexed by square·4 + side label (Sides.Of), the least
// pushes that move a lone box from the square onto the goal when the
// player starts in the part of the board named by the label; Unreachable
// where no solution exists or the index is no label. A box's distance in
// PullDistances is the least over its labels; here the player's part is
// known, which makes a stronger bound where the box's square cuts the
// board (tunnels, doorways). The table takes 4·PullBytes.
func (b *Board) PullDistancesBySide(ctx context.Context) ([][]int32, error) {
	return b.perGoal(ctx, func(pl *Puller, g Square) []int32 {
		state := pl.Search([]Square{g})
		row := make([]int32, 4*b.N)
		for i := range row {
			row[i] = Unreachable
		}
		for i, d := range state {
			if label := pl.links[i]; label >= 0 {
				j := i - i%4 + int(label)
				row[j] = min(row[j], d)
			}
		}
		return row
	})
}
