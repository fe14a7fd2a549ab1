// Package search holds the solvers that search a graph of Sokoban states
// with an open list or a depth-first stack and a set of visited states.
//
//   - bfs: breadth-first search over pushes; push-optimal (000 §1, 001 §2
//     name the uninformed baselines).
//   - astar: A* over pushes with the minimum-cost perfect matching of boxes
//     to goals on pull distances (Hungarian algorithm) as an admissible lower
//     bound, reopening states reached again by a shorter path; push-optimal.
//   - wastar-push and greedy: weighted A* (f = g + W·h) and greedy best-first
//     (f = h) over pushes on the same bound, for comparison.
//   - fama: the greedy best-first search of 004 §3 with its own heuristic
//     (nearest box–goal Manhattan distance, a bonus for boxes on goals next
//     to walls, plus depth), dead squares and 2×2 deadlocks.
//   - idastar: IDA* over pushes on the matching bound with a transposition
//     table and move ordering; push-optimal.
//   - dfs: depth-first search over pushes with a visited set and an optional
//     depth limit.
//   - bfs-moves: breadth-first search over single moves; move-optimal.
//   - wastar: the weighted A* of 001 §2 over single moves, f = g + W·(h1 + h2)
//     with Minkowski distances, its dangerous-cell pruning (corners, boxes
//     between corners, dead-end aisles), tunnel macros and rapid random
//     restarts.
//
// All prune pushes onto dead squares (000 §4.2.1, Alg. 2) and run the
// dynamic deadlock detectors of package deadlock after each push (by default
// frozen boxes, 000 §4.2.1, and wall segments, 001 Alg. 2; fama only 2×2
// blocks, as 004 §3). The best-first searches also apply PI-corral pruning
// (000 §4.2.2 names the sealed-off corral): when one exists, only pushes of
// the boxes bounding it are generated; and the tunnel macro of 001 §2.1.2
// where the tunnel splits the board (pushGraph.pushMacro says why that keeps
// optimal solutions); greedy and wastar-push also the goal-room macro, which
// pushes a box entering a one-door goal room on to the room's next goal in
// a precomputed packing order (deadlock.Fill). States are stored packed in a
// sokoban.Store, with per state only its parent, the push that reached it, g
// and the priority it was queued with. The open list is a bucket queue.
package search

import "soko/solver"

// deadlocksParam is the parameter every push search takes to choose its
// dynamic deadlock detectors (a list for deadlock.ParseDetectors).
const deadlocksParam = "deadlocks=" + defaultDetectors

// piCorralParam switches PI-corral pruning in the best-first searches: on
// (1) by default, off with 0; tunnelsParam likewise the tunnel macro.
const (
	piCorralParam = "picorral=1"
	tunnelsParam  = "tunnels=1"
)

// roomsOn and roomsOff switch the goal-room macro (deadlock.Fill) in the
// best-first searches: on by default in greedy and wastar-push, off in
// astar, whose optimality it would give up (bestFirstConfig.rooms).
const (
	roomsOn  = "rooms=1"
	roomsOff = "rooms=0"
)

func init() {
	for _, e := range []solver.Entry{
		{Name: "bfs", Summary: "breadth-first search over pushes (push-optimal)",
			Params: []string{deadlocksParam}, New: func() solver.Solver { return BFS{} }},
		{Name: "astar", Summary: "A* over pushes, min-cost matching lower bound (push-optimal)",
			Params: []string{deadlocksParam, piCorralParam, tunnelsParam, roomsOff}, New: func() solver.Solver { return AStar{} }},
		{Name: "wastar-push", Summary: "weighted A* over pushes, f = g + W·matching",
			Params: []string{"w=3", deadlocksParam, piCorralParam, tunnelsParam, roomsOn}, New: func() solver.Solver { return WeightedAStar{} }},
		{Name: "greedy", Summary: "greedy best-first over pushes on the matching bound",
			Params: []string{deadlocksParam, piCorralParam, tunnelsParam, roomsOn}, New: func() solver.Solver { return Greedy{} }},
		{Name: "fama", Summary: "greedy best-first over pushes with the FAMA heuristic (004 §3)",
			Params: []string{"deadlocks=2x2"}, New: func() solver.Solver { return FAMA{} }},
		{Name: "idastar", Summary: "IDA* over pushes, matching bound, transposition table, move ordering (push-optimal)",
			Params: []string{deadlocksParam}, New: func() solver.Solver { return IDAStar{} }},
		{Name: "dfs", Summary: "depth-first search over pushes with a visited set (depth=0: no limit)",
			Params: []string{"depth=0", deadlocksParam}, New: func() solver.Solver { return DFS{} }},
		{Name: "bfs-moves", Summary: "breadth-first search over single moves (move-optimal; tiny levels)",
			Params: []string{deadlocksParam}, New: func() solver.Solver { return BFSMoves{} }},
		{Name: "wastar", Summary: "weighted A* over single moves, h = h1 + h2 Minkowski, dangerous cells, tunnel macros (001 §2)",
			Params: []string{"w=200", "p=2", "restart=0"}, New: func() solver.Solver { return WAStar{} }},
	} {
		solver.Register(e)
	}
}
