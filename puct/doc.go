// Package puct is AlphaZero as AlphaZero for Sokoban (Silver et al. 2018,
// after 003 §2.4, which trains the network but searches without its
// policy): a PUCT tree search whose priors come from the policy head of a
// network and whose leaves are valued by its value head, with no
// rollouts, and a self-play trainer that fits the policy to the search's
// visit counts and the value to the episodes' outcomes.
//
// Search (Search, solver puct):
//
//   - Nodes are push-level states (boxes and the player's region, 000
//     §4.1.1) in one slice; an action is a walk and one push. A child is
//     left out when its push goes onto a dead square, the deadlock
//     detectors of the MCTS solvers find it deadlocked (freeze, wall
//     segments), or its state is already in the tree.
//   - A simulation (one iteration) descends by PUCT,
//     Q̂(c) + C·P(c)·√N(x)/(1 + N(c)), to a leaf, expands it (all its
//     children at once) and evaluates it with one network call: the
//     policy head's softmax over the children's pushes gives their
//     priors, the value head the leaf's value, backed up the path by
//     averaging. Q̂ is the mean value normalised by the range of leaf
//     values seen (as MuZero does); a child never visited takes its
//     parent's. The search stops as soon as a solved position enters the
//     tree. A leaf without children, or whose bound is infeasible, is
//     dead, and so is a node all of whose children are dead; a dead root
//     proves there is no solution.
//   - Values: a leaf estimated d pushes from its solution is worth
//     Gamma^d, so a solved position is worth 1 and a dead one 0. The
//     value head predicts d above the pull-distance matching bound h
//     (astar's admissible bound, package heuristic), d = h + max(0, net),
//     so a network that learnt nothing values leaves by the bound.
//   - Without a model: uniform priors and d = h.
//
// Network (Model): package nn's residual tower on seven planes per square
// (walls, goals, boxes, the player's region, dead squares, each box's
// pushes to its nearest goal, the bound: the distance model's encoding,
// distance.Board, whose bound and live pushes the search uses too); the
// value head's output is the
// pushes above the bound / 10; the policy head's logit of pushing the box
// on square (x, y) in direction d is its 1×1 convolution's channel d at
// (x, y), masked to the children's pushes.
//
// Training (Train, soko train-puct), on levels of package generate (never
// the test collections):
//
//  1. Warm start (optional): positions on push-optimal paths (astar) of
//     generated levels, the policy target the optimal push and the value
//     target the remaining pushes.
//  2. Self-play rounds: on fresh generated levels, episodes of
//     AlphaZero's kind: from each position of the episode a search of
//     Sims simulations with Dirichlet noise on the root's priors; the
//     visit counts of the root's children are the policy target; the
//     push played is drawn in proportion to them for the first pushes,
//     then the most visited; the episode ends solved when a solved
//     position enters a search's tree. The value target of every position
//     is its remaining pushes in the episode, or DeadGap above its bound
//     when the episode ended without a solution (no push left, or the
//     push cap reached). Each round trains Steps AdamW steps on batches
//     drawn from the last rounds' samples.
//
// A training run is a function of its options and seed: the games of a
// round run on workers against copies of one network, and their samples
// are merged in game order.
package puct
