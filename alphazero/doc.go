// Package alphazero is 003's AlphaZero-style solver ("Solve Sokoban with
// AlphaZero", Purgal et al.; README, References): a residual network (package nn) trained
// on samples from MCTS search trees and then used as the heuristic value
// inside the MCTS core (package mcts), alone or mixed with the distance
// heuristic.
//
//   - Search (003 §2.1): the push-level MCTS core of package mcts in its
//     Schokoban configuration (000 §5: one node per state, deadlocked
//     states cut, Recursive Node Elimination), so the only difference from
//     the baseline is where node values come from.
//   - Network input (003 §2.4): per board square, the planes wall, goal,
//     box, player-reachable (the push-level state's player region) and a
//     constant plane holding the target heuristic value; the embedding is
//     the network's 1×1 convolution over these planes (package nn).
//   - Training targets (003 §2.5, Fig. 6): for every node s of a search tree
//     and every node d of s's subtree, s included, whose heuristic value is
//     not worse, h(d) ≤ h(s), one sample (s, h(d)) → depth(d) − depth(s):
//     the steps (pushes) needed from s to reach heuristic value h(d); for
//     each (s, h) the fewest steps. h is the Manhattan matching of boxes to
//     goals (000 §4.1.2), the heuristic 003 calls "distance to goal from
//     boxes". The trees come from MCTS runs with the plain heuristic, as in
//     003 (§2.4: the model is trained from MCTS, saved, then used as the
//     heuristic of a new run).
//   - Value used in the search (003 §2.5, §3.1): the network's predicted
//     steps to reach heuristic value 0, negated, so that it is in the units
//     of the matching reward (pushes); mixed as weight·model +
//     (1 − weight)·heuristic with weight 0.8 by default (parameter weight;
//     1 is the model alone).
//   - Policy head: our choice is a policy over pushes (a box square and a
//     direction); it is trained towards the visit distribution of each
//     expanded node's children. The search does not use it: 003 uses the
//     network only as a heuristic, and UCT in the core has no priors.
//   - Per board and across levels: Train takes any set of levels; samples
//     of boards of equal size share batches.
//   - Budget: the solver's time limit and context reach into every network
//     evaluation, which stops between layers and chunks of squares; the
//     model's weights and working memory (nn.Config.Bytes) count against
//     the memory limit, and a model that does not fit stops the run at once
//     with a memory limit, before its weights are read. Training looks at
//     its clock and context inside every step and refuses a network that
//     cannot train within Options.Memory.
//   - Determinism: a training run is a function of its levels, options and
//     seed (the number of rounds, when a time limit ends it, aside): the
//     searches run on their own goroutine, beside training on the other
//     core, but hand their samples over in round order, and GEMM sums in a
//     fixed order whatever the threads.
package alphazero
