// Package heuristic holds the lower bounds used by the solvers.
//
// The first and main one is the minimum-cost perfect matching of boxes to
// goals on a square matrix of push distances (Matcher, an O(n³) Hungarian
// algorithm with potentials that treats "no path" entries as missing edges).
// Every box needs at least its own push distance to the goal it ends on, and
// no two boxes share a goal, so the matching total never overestimates the
// pushes left: it is an admissible bound for A*, IDA* and their weighted
// variants. The same quantity, negated and computed on Manhattan distances,
// is the reward of Vanillaban and Schokoban (seed 000, §4.1.2, after Crippa,
// Lanzi and Marocchi 2021, who found it the most promising of four reward
// functions for Sokoban MCTS).
//
// PushMatching applies it to positions: the distances are kept
// square-major so a box's row is a slice; a search scoring the children of
// one position repairs the parent's matching and potentials in the moved
// boxes' rows, one augmenting path each (O(n²) per child instead of O(n³));
// and with sides (NewSidedPushMatching) a box's distance is that of a lone
// box with the player in the part of the board around it where the player
// is, which is larger where the box's square cuts the board.
//
// GroupBound is a second bound, for A* on levels whose boxes block each
// other in groups between tunnels: the exact pushes of each group of boxes
// with the others taken off the board, from pattern databases built
// backwards from the goals, plus the matching of the boxes in no group.
package heuristic
