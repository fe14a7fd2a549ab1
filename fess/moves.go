package fess

import "soko/sokoban"

// A moveSet says which of a box's macro-moves (the FESS paper's moves: the
// box to every square it can be pushed to) a strategy's forward search
// makes.
type moveSet uint8

const (
	// everyMove: all of them, as the paper has it; the search is then
	// exhaustive.
	everyMove moveSet = iota
	// packingMoves: after YASS's packing-order search (its moves as
	// Wheeler summed them up: a box pushed all the way onto a goal, or as
	// far as it goes out of the way; README, References), a box's moves onto a
	// goal the plan has not packed yet, those to its farthest squares off
	// the goals, and its single pushes, which free a neighbour. The search
	// then sees a part of the graph, a small one it goes through fast, and
	// its end proves nothing.
	packingMoves
)

func (m moveSet) String() string {
	return [...]string{"every", "onto a goal, farthest, single pushes"}[m]
}

// exhaustive reports whether a search making these moves covers the whole
// graph.
func (m moveSet) exhaustive() bool { return m == everyMove }

// keep returns moves with the moves of one box, moves[n:], cut down to
// the set (p is the position they are made from).
func (m moveSet) keep(e *engine, p *sokoban.Position, moves []Macro, n int) []Macro {
	if m == everyMove || len(moves) == n {
		return moves
	}
	packed := e.plan.packed(p)
	far := int32(0)
	for _, mv := range moves[n:] {
		if !e.b.IsGoal(mv.To) {
			far = max(far, mv.Pushes)
		}
	}
	kept := moves[:n]
	for _, mv := range moves[n:] {
		onGoal := e.b.IsGoal(mv.To)
		if mv.Pushes == 1 || onGoal && int(e.plan.rank[mv.To]) >= packed || !onGoal && mv.Pushes == far {
			kept = append(kept, mv)
		}
	}
	return kept
}
