// Package fess is the feature-space search (FESS) of issue 12, after
// Shoham and Schaeffer, "The FESS Algorithm: A Feature Based Approach to
// Single-Agent Search" (IEEE CoG 2020; README, References). Not
// push-optimal: it trades optimality for reach.
//
//   - Box macro-moves (macro.go, issue 12 §1): one move pushes one box to
//     any square it can reach with the other boxes in place, over a graph
//     of (square, player side) states whose side joins come from one
//     articulation-point search per box, not a flood fill per push. Dead
//     squares are never entered; PI-corral pruning (deadlock.Corrals)
//     keeps only the moves of the corral's boxes.
//     Stops that only pass through a board-splitting tunnel are left out.
//   - The packing plan (plan.go, issue 12 §2): the order in which goals
//     are filled, worked out backwards from the solved position by pulling
//     boxes off the goals (a depth-first search for an order in which each
//     goal's box can be pulled out to a start square), with, per step, the
//     zone of squares still in line with it. Where no such order exists
//     (12 of XSokoban's 90 levels), the plan strategies take the order in
//     which the backward search's path fills the goals (search.go,
//     replan), on a tenth of their budget.
//   - The parking plan (park.go), for the park strategy: a list of box
//     moves (from, to, until) rather than an order of goals, taken from
//     a best-first pull search from the solved position in which a box
//     pulled into the sink (the room of squares a lone box goes to and
//     from between the most start squares, goals filled) leaves the
//     board, to a position whose boxes stand on start squares. A box may
//     be parked off its goal and moved on by a later entry (XSokoban 87
//     parks two above its goal room). Packed counts along the entries,
//     an entry whose box was moved on may be empty, and each step has
//     its own out-of-plan zone with the parked boxes as walls.
//   - Features and cells (features.go, hotspots.go, issue 12 §3): boxes
//     packed along the plan, the number of player regions, boxes out of
//     plan; hotspots (boxes in another's way to an empty goal, Festival's
//     blocking table); the distance to the goals breaks ties. A node's
//     cell is the best (packed, regions, out of plan, hotspots) on its
//     path.
//   - The cell loop (search.go): turns alternate between the best cell and
//     a round robin over all cells (when the best cell has no node left,
//     its turns go to the round robin too, or, focusing, to the best cell
//     that has: goals and dive always, plan on the last quarter of its
//     budget); within a cell the node with the least accumulated move
//     weight comes first, where moves proposed by the
//     advisors (pack, out of plan, hotspots; the opener and connectivity
//     in one strategy) weigh 0 and all others 1. Nothing is pruned for
//     weight: the search is complete over the macro-move graph without
//     deadlocks.
//   - Deadlocks in two tiers (issue 12 §4): frozen boxes and wall segments
//     when a move is generated; learned patterns, the corral search (whose
//     cache searches a recurring open corral again with a larger budget),
//     boxes cut off by boxes frozen on goals (deadlock.FrozenGoals) and the
//     matching of boxes to goals only when a node comes up for expansion.
//     A subtree that grows to 64 expansions has its root examined for a
//     deadlock pattern (deadlock.Patterns): the boxes that are not loose,
//     proved unable to be all freed or put on goals by a small relaxed
//     search, minimised, and matched against every later node. (Closed
//     diagonals are corrals the corral search already proves.)
//   - The backward search (backward.go, issue 12 §5): pull macro-moves
//     from the solved position; a position both searches stored splices
//     the two halves. The imagine strategy runs it first, on a third of
//     its budget, and packs towards its position with the fewest boxes
//     left on goals (Festival's HF strategy); beside plan FESS it is off
//     by default (--param backward=SHARE interleaves it).
//   - The portfolio (portfolio.go, issue 12 §6): greedy, dive (plan FESS
//     focusing from the start, briefly), plan FESS, imagine and park (FESS
//     along the parking plan, a fifth of the budget), each with its share
//     of the budget (FESS on boxes on goals in any order, FESS with the
//     opener advisor and pair are further strategies).
//
// Room connectivity (links between rooms of 2×2 blocks) was tried as a
// feature and advisor and left out: it solved two XSokoban levels fewer at
// 4,000 expansions and doubled the cost of a child.
//
// Every solution is expanded to pushes by replaying the macro-moves, then
// to LURD, and verified by solver.Run like every other solver's.
package fess
