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

// keep returns moves with moves[start:], the moves of p's boxes made box
// after box, cut down to the set.
func (m moveSet) keep(e *engine, p *sokoban.Position, moves []Macro, start int) []Macro {
	if m == everyMove {
		return moves
	}
	packed := e.plan.packed(p)
	kept := moves[:start]
	for i := start; i < len(moves); {
		j := i // moves[i:j] are one box's
		far := int32(0)
		for ; j < len(moves) && moves[j].From == moves[i].From; j++ {
			if !e.b.IsGoal(moves[j].To) {
				far = max(far, moves[j].Pushes)
			}
		}
		for _, mv := range moves[i:j] {
			onGoal := e.b.IsGoal(mv.To)
			if mv.Pushes == 1 || onGoal && int(e.plan.rank[mv.To]) >= packed || !onGoal && mv.Pushes == far {
				kept = append(kept, mv)
			}
		}
		i = j
	}
	return kept
}
