// Package search holds the solvers that search a graph of Sokoban states
// with an open list and a closed set.
//
//   - bfs: breadth-first search over pushes; push-optimal.
//   - astar: A* over pushes with the minimum-cost perfect matching of boxes
//     to goals on pull distances (Hungarian algorithm) as an admissible lower
//     bound, reopening states reached again by a shorter path; push-optimal.
//
// Both prune with the static deadlock tables of package deadlock: no push
// onto a dead square (000 §4.2.1, Alg. 2), no push that leaves a frozen box
// off its goal (000 §4.2.1, locked boxes). Both store states packed in a
// sokoban.Store and keep per state only its parent, the push that reached it
// and, for A*, its g and h.
package search

import "soko/solver"

func init() {
	solver.Register(solver.Entry{
		Name:    "bfs",
		Summary: "breadth-first search over pushes (push-optimal)",
		New:     func() solver.Solver { return BFS{} },
	})
	solver.Register(solver.Entry{
		Name:    "astar",
		Summary: "A* over pushes, min-cost matching lower bound (push-optimal)",
		New:     func() solver.Solver { return AStar{} },
	})
}
