// Package grid lays a Sokoban position over the grid of a network of
// package nn: the input planes every board network here reads first (walls,
// goals, boxes, the player's reach), each a plane of the level's grid, and
// the index of a push among the policy head's logits, a plane per
// direction. The alphazero, distance and puct models add their own planes
// after the first four.
package grid

import "soko/sokoban"

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
