// Package search holds the solvers that search a graph of Sokoban states
// with an open list or a depth-first stack and a set of visited states.
//
//   - bfs: breadth-first search over pushes; push-optimal (000 §1, 001 §2
//     name the uninformed baselines).
//   - astar: A* (Hart, Nilsson and Raphael 1968) over pushes with the
//     minimum-cost perfect matching of boxes to goals on pull distances
//     (Hungarian algorithm, Kuhn 1955) as an admissible lower bound,
//     reopening states reached again by a shorter path, storing positions
//     up to the board's reflections and rotations (type symmetry),
//     pruning frozen-goal deadlocks and raising the bound for boxes that
//     must leave their goals (deadlock.FrozenGoals.MustLeave,
//     heuristic.PushMatching.Leave), and, on levels still unsolved after
//     20,000 expansions, raising the bound with the exact pushes of
//     groups of boxes between tunnels, others taken off, from tables
//     built backwards from the goals (heuristic.GroupBound); push-optimal.
//   - wastar-push and greedy: weighted A* (Pohl 1970; f = g + W·h) and
//     greedy best-first (f = h) over pushes on the same bound, for
//     comparison.
//   - fama: the greedy best-first search of 004 §3 with its own heuristic
//     (nearest box–goal Manhattan distance, a bonus for boxes on goals next
//     to walls, plus depth), dead squares and 2×2 deadlocks.
//   - idastar: IDA* (Korf 1985) over pushes on the matching bound with a
//     transposition table and move ordering; push-optimal.
//   - dfs: depth-first search over pushes with a visited set and an optional
//     depth limit.
//   - bfs-moves: breadth-first search over single moves; move-optimal.
//   - wastar: the weighted A* of 001 §2 over single moves, f = g + W·(h1 + h2)
//     with Minkowski distances, its dangerous-cell pruning (corners, boxes
//     between corners, dead-end aisles), tunnel macros and rapid random
//     restarts.
//   - bigreedy: greedy best-first over pushes from the start and over
//     single pulls from the solved position, storing into one table so
//     that the two meet (YASS's and Festival's meeting in the middle), for
//     small dense levels.
//
// All prune pushes onto dead squares (000 §4.2.1, Alg. 2) and run the
// dynamic deadlock detectors of package deadlock after each push (by default
// frozen boxes, 000 §4.2.1, wall segments, 001 Alg. 2, and the level's
// table of dead sets of up to three boxes, built once 2,000 states were
// expanded; fama only 2×2 blocks, as 004 §3). The push searches share one successor generator
// (pushGraph.candidates and pushMacro): PI-corral pruning (000 §4.2.2 names
// the sealed-off corral): when one exists, only pushes of the boxes bounding
// it are generated; and, in all but bfs, whose order by depth it would
// break, the tunnel macro of 001 §2.1.2 where the tunnel splits the board
// (pushGraph.pushMacro says why that keeps optimal solutions). The
// best-first searches take the canonical player square of most children
// from the parent's region (sokoban.Region) and score them by repairing
// the parent's matching (heuristic.PushMatching.Child); greedy and
// wastar-push also use the goal-room macro, which
// pushes a box entering a one-door goal room on to the room's next goal in
// a precomputed packing order (deadlock.Fill). States are stored packed in a
// sokoban.Store, with per state only its parent, the push that reached it, g
// and the priority it was queued with. The open list is a bucket queue.
package search

import (
	"soko/deadlock"
	"soko/solver"
)

// deadlocksParam declares the parameter every push search takes to choose
// its dynamic deadlock detectors (a list for deadlock.ParseDetectors), with
// default def.
func deadlocksParam(def string) solver.Param {
	var names []string
	for k := deadlock.Kind(0); k < deadlock.NumKinds; k++ {
		names = append(names, k.String())
	}
	return solver.Param{Name: "deadlocks", Kind: solver.List, Default: def, Values: append(names, "all", "none"),
		Doc: "dynamic deadlock detectors"}
}

// switchParam declares a Bool parameter that turns a feature on (default
// on) or off.
func switchParam(name string, on bool, doc string) solver.Param {
	def := "0"
	if on {
		def = "1"
	}
	return solver.Param{Name: name, Kind: solver.Bool, Default: def, Doc: doc}
}

// The switches of the push searches' features: PI-corral pruning, the
// tunnel macro, storing up to symmetry and the frozen-goal pruning are on
// by default.
var (
	piCorralParam    = switchParam("picorral", true, "PI-corral pruning (000 §4.2.2)")
	tunnelsParam     = switchParam("tunnels", true, "tunnel macro: a box pushed into a tunnel that splits the board goes on through it")
	symmetryParam    = switchParam("symmetry", true, "store positions up to the board's reflections and rotations")
	frozenGoalsParam = switchParam("frozengoals", true, "prune frozen-goal deadlocks; count boxes that must leave their goals in the bound")
	// parkedLastParam puts, at equal f, the states with parked boxes that
	// must leave their goals (a box on a goal that must move again and was
	// not pushed last) after the others. A parked box costs pushes the
	// bound cannot count yet, so such states are less often on an optimal
	// path: on Microban 153 (a box at the mouth of the goal corridor while
	// it is still empty) the last f level shrinks and A* solves it in 32 s
	// instead of 88 s; but XSokoban 49, whose solutions park boxes on goals
	// for a while, is no longer solved in 60 s. Off by default.
	parkedLastParam = switchParam("parkedlast", false, "at equal f, expand states with parked boxes that must leave their goals last")
	// expandCorralsParam makes astar look for corral deadlocks
	// (deadlock.Corrals.Dead) in each state it expands, rather than in each
	// state it generates, as the corral detector of the deadlocks list
	// does: some five times fewer checks, each of them on a position whose
	// player region is known already (see bestFirstConfig.expandCorrals).
	expandCorralsParam = switchParam("expandcorrals", true, "look for corral deadlocks in each state expanded")
	// groupsParam turns astar's group bound on (heuristic.GroupBound).
	groupsParam = switchParam("groups", true, "after 20000 expansions, raise the bound with exact pushes of groups of boxes between tunnels")
)

// roomsParam switches the goal-room macro (deadlock.Fill) in the best-first
// searches, with default on: on in greedy and wastar-push, off in astar,
// whose optimality it would give up (bestFirstConfig.rooms).
func roomsParam(on bool) solver.Param {
	return switchParam("rooms", on, "goal-room macro: a box entering a one-door goal room goes on to its next goal")
}

// The other parameters, with their ranges: the weights and the Minkowski
// exponent are finite and bounded so that priorities stay within the bucket
// queue's range in practice (larger ones are clamped to it anyway).
var (
	pushWParam = solver.Param{Name: "w", Kind: solver.Real, Default: "3", Min: 0, Max: 1000,
		Doc: "weight W of the matching bound in f = g + W·h"}
	dfsDepthParam = solver.Param{Name: "depth", Kind: solver.Int, Default: "0", Min: 0, Max: maxDepth,
		Doc: "most pushes on a path (0: no limit)"}
	restartParam = solver.Param{Name: "restart", Kind: solver.Int, Default: "0", Min: 0, Max: 1e9,
		Doc: "start over every T expansions with a new random tie-break (0: never)"}
)

// MoveWParam and MinkowskiParam are wastar's weight W and exponent p, which
// SubGoal reads too.
var (
	MoveWParam = solver.Param{Name: "w", Kind: solver.Real, Default: "200", Min: 0, Max: 10000,
		Doc: "weight W of h = h1 + h2 in f = g + W·h"}
	MinkowskiParam = solver.Param{Name: "p", Kind: solver.Real, Default: "2", Min: 1, Max: 64,
		Doc: "exponent of the Minkowski distances (1: Manhattan, 2: Euclidean)"}
)

func init() {
	deadlocks := deadlocksParam(defaultDetectors)
	for _, e := range []solver.Entry{
		{Name: "bfs", Summary: "breadth-first search over pushes (push-optimal)",
			Params: []solver.Param{deadlocks, piCorralParam}, New: func() solver.Solver { return BFS{} }},
		{Name: "astar", Summary: "A* over pushes, min-cost matching lower bound (push-optimal)",
			Params: []solver.Param{deadlocks, piCorralParam, tunnelsParam, roomsParam(false), symmetryParam, frozenGoalsParam, parkedLastParam, expandCorralsParam, groupsParam}, New: func() solver.Solver { return AStar{} }},
		{Name: "wastar-push", Summary: "weighted A* over pushes, f = g + W·matching",
			Params: []solver.Param{pushWParam, deadlocks, piCorralParam, tunnelsParam, roomsParam(true)}, New: func() solver.Solver { return WeightedAStar{} }},
		{Name: "greedy", Summary: "greedy best-first over pushes on the matching bound",
			Params: []solver.Param{deadlocks, piCorralParam, tunnelsParam, roomsParam(true)}, New: func() solver.Solver { return Greedy{} }},
		{Name: "bigreedy", Summary: "greedy best-first over pushes and over pulls from the goals at once, meeting in one table",
			Params: bigreedyParams(), New: func() solver.Solver { return BiGreedy{} }},
		{Name: "fama", Summary: "greedy best-first over pushes with the FAMA heuristic (004 §3)",
			Params: []solver.Param{deadlocksParam(famaDetectors), piCorralParam, tunnelsParam, roomsParam(false)}, New: func() solver.Solver { return FAMA{} }},
		{Name: "idastar", Summary: "IDA* over pushes, matching bound, transposition table, move ordering (push-optimal)",
			Params: []solver.Param{deadlocks, piCorralParam, tunnelsParam}, New: func() solver.Solver { return IDAStar{} }},
		{Name: "dfs", Summary: "depth-first search over pushes with a visited set (depth=0: no limit)",
			Params: []solver.Param{dfsDepthParam, deadlocks, piCorralParam, tunnelsParam}, New: func() solver.Solver { return DFS{} }},
		{Name: "bfs-moves", Summary: "breadth-first search over single moves (move-optimal; tiny levels)",
			Params: []solver.Param{deadlocks}, New: func() solver.Solver { return BFSMoves{} }},
		{Name: "wastar", Summary: "weighted A* over single moves, h = h1 + h2 Minkowski, dangerous cells, tunnel macros (001 §2)",
			Params: []solver.Param{MoveWParam, MinkowskiParam, restartParam}, New: func() solver.Solver { return WAStar{} }},
	} {
		solver.Register(e)
	}
}
