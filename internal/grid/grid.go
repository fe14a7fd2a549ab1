// Package grid lays a Sokoban position over the grid of a network of
// package nn: the input planes every board network here reads first (walls,
// goals, boxes, the player's reach), each a plane of the level's grid, and
// the index of a push among the policy head's logits, a plane per
// direction; and the batches such a network takes, of one board size and
// at most MaxSquares squares. The alphazero, distance and puct models add
// their own planes after the first four.
package grid

import (
	"math/rand/v2"

	"soko/sokoban"
)

// The planes every encoding starts with, and Base, the index of the first
// plane an encoding adds.
const (
	Wall  = iota // not a floor square of the board
	Goal         // a goal
	Box          // a box
	Reach        // the player can walk there
	Base
)

// Append appends n planes (n ≥ Base) over the grid of p's board to dst: 1
// on the walls, the goals, the boxes and the squares the player can reach,
// each in its plane, and 0 elsewhere, the planes from Base on included for
// the caller to draw. It returns dst and the appended planes.
func Append(dst []float64, p *sokoban.Position, n int) ([]float64, []float64) {
	b := p.Board()
	w, h := b.Width, b.Level.Height
	hw := w * h
	start := len(dst)
	for range n * hw {
		dst = append(dst, 0)
	}
	in := dst[start:]
	p.Reach()
	for y := range h {
		for x := range w {
			i := y*w + x
			s := b.At(x, y)
			if s == sokoban.None {
				in[Wall*hw+i] = 1
				continue
			}
			if b.IsGoal(s) {
				in[Goal*hw+i] = 1
			}
			if p.HasBox(s) {
				in[Box*hw+i] = 1
			}
			if p.Reachable(s) {
				in[Reach*hw+i] = 1
			}
		}
	}
	return dst, in
}

// Logit is the index of push m among the policy logits of board b: the
// plane of its direction, the square of its box (nn.Net.Evaluate).
func Logit(b *sokoban.Board, m sokoban.Push) int32 {
	x, y := b.XY(m.Box)
	return int32(int(m.Dir)*b.Width*b.Level.Height + y*b.Width + x)
}

// MaxSquares bounds the board squares of one network batch, in inference
// and in training: 64 boards of 10×10 and more, one board of any size.
const MaxSquares = 8192

// DrawBatch draws a training batch of up to n of count items at random
// with rng: the first item drawn fixes the board size (board gives an
// item's board), items on boards of another size are passed over, the
// batch holds at most MaxSquares squares but one board at least, and at
// most 4n more draws are made. It returns the items in the order drawn,
// and the boards' height and width.
func DrawBatch(rng *rand.Rand, count, n int, board func(item int) *sokoban.Board) ([]int, int, int) {
	first := board(rng.IntN(count))
	w, h := first.Width, first.Level.Height
	n = min(n, max(1, MaxSquares/(w*h)))
	items := make([]int, 0, n)
	for tries := 0; len(items) < n && tries < 4*n; tries++ {
		i := rng.IntN(count)
		if b := board(i); b.Width != w || b.Level.Height != h {
			continue
		}
		items = append(items, i)
	}
	return items, h, w
}
