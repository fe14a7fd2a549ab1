package mcts

import (
	"soko/level"
	"soko/sokoban"
)

// The single-move game's state is a sokoban.Position: the boxes and the
// exact player square (at this level two player squares are two states),
// identified by Position.HashExact.

// step moves the player of p in direction d, which must be legal, and
// reports whether it pushed a box.
func step(p *sokoban.Position, d level.Dir) (pushed bool) {
	to, push, _ := p.Step(d)
	if push {
		p.Apply(sokoban.Push{Box: to, Dir: d})
	} else {
		p.SetPlayer(to)
	}
	return push
}

// legal appends the directions the player of p can step in to dst: onto
// free floor, or pushing a box onto free floor.
func legal(p *sokoban.Position, dst []level.Dir) []level.Dir {
	for d := range level.Dirs {
		if _, _, ok := p.Step(d); ok {
			dst = append(dst, d)
		}
	}
	return dst
}

// covered returns the share of goals covered by boxes in p.
func covered(p *sokoban.Position) float64 {
	return float64(p.OnGoal()) / float64(len(p.BoxSquares()))
}
