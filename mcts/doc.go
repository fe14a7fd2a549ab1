// Package mcts is the Monte Carlo Tree Search family: one MCTS core and the
// solvers built as configurations of it. Seed documents: 000 (Kröger,
// "Schokoban: Using Monte Carlo Tree Search for Solving Sokoban", 2024) and
// 002 (Cook, "Monte Carlo Tree Search With Reversibility Compression"); the
// README's References give them and the other works cited here in full.
//
// The core (Tree, Search, Game):
//
//   - Nodes live in one slice and are addressed by int32 index (Tree); child
//     lists are doubly linked so that nodes can be deleted and subtrees moved
//     in O(1); freed slots are reused.
//   - The loop of 000 §3.2 / Fig. 3.2: selection, expansion of every action,
//     evaluation (a rollout or an immediate reward), backup. A node never
//     visited is evaluated without expansion (§3.2.2); after expansion one new
//     child, chosen at random, is evaluated.
//   - Selection by UCT (Kocsis and Szepesvári 2006),
//     v + c·√(2 ln n_parent / n_child), unvisited children first and chosen
//     at random, ties at random (§3.2.5, Alg. 1).
//   - Backup by averaging, v ← (n·v + u)/(n+1), with the value negated at
//     every level for two-player games (§3.2.4, Appendix B.2) or passed up
//     unchanged for single-player ones (§4.3.2). Nodes store the sum of the
//     values instead of their average.
//   - Recursive Node Elimination (§4.2.3, after Crippa, Lanzi and Marocchi
//     2021): an expanded node left without children is deleted, and so is
//     every ancestor that this leaves childless; a root left childless
//     proves there is no solution.
//   - Subtree re-parenting with the visit-count and value corrections of
//     §5.2 (Tree.Reparent).
//   - Pluggable phases: the Game supplies expansion and evaluation, a Visitor
//     game hooks into selection, a Remover game hears of eliminated nodes.
//     Runs are deterministic for a given seed (math/rand/v2 PCG; no map
//     iteration on any path that decides anything).
//   - The core is generic over the game; an example test plays Tic-Tac-Toe
//     with it as in 000 Appendix B.
//
// The solvers (registered with package solver):
//
//   - vanillaban (000 §4): MCTS over push-level equivalence states, the
//     boxes plus the player's reachable region (§4.1.1); an action is a walk
//     followed by one push. A new node's value is its state's reward, the
//     negative minimum-cost perfect matching of boxes to goals by Manhattan
//     distance (§4.1.2; Hungarian algorithm, package heuristic), in units of
//     pushes, with no rollout (§4.3.1). Deadlocked states are terminal and
//     eliminated (§4.2.1: locking tiles by pulling from every goal, Alg. 2;
//     wall deadlocks, Alg. 3, generalised to every closed wall segment;
//     locked boxes by the alternating horizontal/vertical rule; the last two
//     by package deadlock's Checker). Solved as soon as a solved state enters
//     the tree; the solution is the path to it.
//   - schokoban (000 §5): vanillaban with a table from state to node. A
//     state met again no deeper than its node is discarded; met on a shorter
//     path, its node's subtree is re-parented with the §5.2 corrections,
//     depths are updated and Recursive Node Elimination runs from the former
//     parent (Alg. 4).
//   - mcts, mcts-n, mcts-nd (002 §V.A): UCT over single player moves with
//     random rollouts of at most 50 moves, C = 1, reward = share of goals
//     covered (solved: all covered); mcts-n adds the novelty bonus
//     0.9·c/t + 0.1·n/s; mcts-nd never adds a state already in the tree.
//   - mcts-r (002 §III, Alg. 1 and 2): mcts with reversibility checking
//     during selection and compression of reversible chains into the
//     chain's top node, with action lists and hash lists per node; dangling
//     subtrees are re-inserted under the top at the same relative depth,
//     merging with a sibling of the same state, which keeps the shorter
//     action list (reversal.go). Where 002 is silent we chose: a node is
//     merged into a sibling only when their states are equal (a state that
//     is merely in the sibling's hash list has no known walk from the
//     sibling's own state); and an expanded node left with no children
//     after compression, a closed class, is eliminated as in 000 §4.2.3.
//
// Move-level states are identified by 64-bit Zobrist hashes of the boxes
// and the exact player square, as 002's hash lists do; push-level states by
// their packed form in a sokoban.Store, so no collision can merge two.
//
// Budgets: the clock starts before the board and the tables are built, so
// set-up counts against the time limit. Besides the loop's look at the
// budget before each iteration (solver.Guard.Tick), the push-level games
// look at the clock and the context while they build their tables, every
// 16 pushes of an expansion and, with an Evaluator, before each child's
// value; the move-level games every 1,024 rollout steps. A node of a level
// with hundreds of boxes has hundreds of pushes, so one expansion would
// otherwise run long past the limit. An expansion stopped part way ends
// its iteration with Stopped (Stopper), and the solver returns TimeLimit
// or Cancelled.
//
// Statistics: Iterations, TreeSize (nodes at the end) and UniqueStates
// (distinct states ever added to the tree) are reported for every solver;
// UniqueStates/TreeSize is 002 Table I's unique states per tree node.
package mcts
