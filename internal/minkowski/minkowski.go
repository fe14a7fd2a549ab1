// Package minkowski is the move-level distance heuristic of 001 (Eq. 6–8):
// h = h1 + h2, where h1 is the Minkowski-p distance from the player to the
// nearest box off a goal and h2 the average over the boxes of the summed
// distances from the box to every goal. It ignores walls, so it is cheap
// and not admissible. Package search's wastar orders its open list by it,
// and package env's 001 rewards follow its changes.
package minkowski

import (
	"math"

	"soko/sokoban"
)

// Heuristic is h on one board with one exponent p ≥ 1 (1: Manhattan, 2:
// Euclidean).
type Heuristic struct {
	b      *sokoban.Board
	p      float64
	xs, ys []float64 // each square's grid coordinates
}

// New returns h on board b with exponent p.
func New(b *sokoban.Board, p float64) *Heuristic {
	h := &Heuristic{b: b, p: p, xs: make([]float64, b.N), ys: make([]float64, b.N)}
	for s := range b.N {
		x, y := b.XY(sokoban.Square(s))
		h.xs[s], h.ys[s] = float64(x), float64(y)
	}
	return h
}

// Bytes is the memory of the heuristic's tables.
func (h *Heuristic) Bytes() int64 { return 16 * int64(h.b.N) }

// Distance is the Minkowski-p distance between squares a and c.
func (h *Heuristic) Distance(a, c sokoban.Square) float64 {
	dx, dy := math.Abs(h.xs[a]-h.xs[c]), math.Abs(h.ys[a]-h.ys[c])
	switch h.p {
	case 1:
		return dx + dy
	case 2:
		return math.Sqrt(dx*dx + dy*dy)
	}
	return math.Pow(math.Pow(dx, h.p)+math.Pow(dy, h.p), 1/h.p)
}

// Of returns h1 + h2 of position pos; h1 is 0 when every box is on a goal.
func (h *Heuristic) Of(pos *sokoban.Position) float64 {
	player := pos.Player()
	h1, h2 := math.Inf(1), 0.0
	boxes := pos.BoxSquares()
	for _, box := range boxes {
		if !h.b.IsGoal(box) {
			h1 = min(h1, h.Distance(player, box))
		}
		for _, g := range h.b.Goals() {
			h2 += h.Distance(box, g)
		}
	}
	if math.IsInf(h1, 1) {
		h1 = 0
	}
	return h1 + h2/float64(len(boxes))
}
