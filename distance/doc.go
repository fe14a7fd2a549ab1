// Package distance is 003's future work (003 §4.2.2): a learned model of
// how many pushes a position is from its solution, trained by supervised
// regression rather than on search trees, and used as the value of
// Schokoban's MCTS (solver mcts-dist) and as the heuristic of greedy
// best-first search (solver greedy-dist).
//
// 003 proposes a model of the steps between two positions, asked with the
// solved position as the second one. Every level has one solved box
// layout, so here the second position is the level's own goals (a plane
// of the input) and the model is asked for the pushes to the solution.
//
// Data (Dataset): levels made by package generate, each solved
// push-optimally by astar. Every position on the optimal path is an
// example whose target is its remaining pushes. Each position on the
// path also gives its children, one push away: a child the deadlock
// detectors find deadlocked is an example with a high target (DeadGap
// pushes above its bound), a child astar solves is labelled with its
// optimal pushes, and one astar proves unsolvable is dead too. A few
// random excursions of two to four pushes off the path, labelled the same
// way, show the model positions no optimal path passes through, as a
// search meets them.
//
// The model (Model) predicts the gap above an admissible bound: the
// minimum-cost matching of boxes to goals on pull distances (package
// heuristic, astar's bound). Its estimate is bound + max(0, net), so a
// model that learnt nothing is the bound itself. The network is package
// nn's residual convolutional network (its value head; the policy head
// is not trained), on the input planes of encode.
package distance
