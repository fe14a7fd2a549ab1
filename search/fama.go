package search

import (
	"context"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// FAMA is the best-first search of seed 004 §3: greedy best-first over
// pushes, all pushes of a state found by one reachability search, a visited
// set, dead squares and 2×2 deadlocks (004 Fig. 3) as its pruning, and
// its heuristic (004 §3.2), lower is better:
//
//	the Manhattan distance from the box nearest to a goal to that goal
//	(boxes on goals left out; the goals considered are the empty ones),
//	− 20·(1 + adjacent walls, boxes counting as walls) for every box on a goal,
//	+ the search depth.
//
// Dead squares here are the pull-based ones of 000 Alg. 2, a superset of the
// corners and wall stretches 004 marks by hand. Like the other best-first
// searches it also applies PI-corral pruning and the tunnel macro by
// default; picorral=0 tunnels=0 leave 004's pruning alone.
type FAMA struct{}

// famaDetectors are FAMA's dynamic deadlock detectors: 2×2 blocks, as 004.
const famaDetectors = "2x2"

// Solve implements solver.Solver.
func (FAMA) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	return bestFirst(ctx, l, opts, bestFirstConfig{score: famaScore, detectors: famaDetectors})
}

func famaScore(g *pushGraph) (scorer, error) {
	b := g.board
	xs, ys := make([]int, b.N), make([]int, b.N)
	walls := make([]int, b.N)
	for s := sokoban.Square(0); int(s) < b.N; s++ {
		xs[s], ys[s] = b.XY(s)
		for d := range sokoban.Dirs {
			if b.Next(s, d) < 0 {
				walls[s]++
			}
		}
	}
	// The bonus for boxes on goals is at most 20·5 per box; offset every
	// priority by that so none is negative.
	offset := 100 * b.Boxes()
	return scorer{score: func(p *sokoban.Position, depth int) (int, int, bool) {
		h, nearest := 0, -1
		for _, s := range p.BoxSquares() {
			if b.IsGoal(s) {
				adjacent := walls[s]
				for d := range sokoban.Dirs {
					if n := b.Next(s, d); n >= 0 && p.HasBox(n) {
						adjacent++
					}
				}
				h -= 20 * (1 + adjacent)
				continue
			}
			for _, t := range b.Goals() {
				if p.HasBox(t) {
					continue
				}
				d := abs(xs[s]-xs[t]) + abs(ys[s]-ys[t])
				if nearest < 0 || d < nearest {
					nearest = d
				}
			}
		}
		if nearest > 0 {
			h += nearest
		}
		return h + depth + offset, 0, true
	}}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
