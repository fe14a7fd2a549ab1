// Package lts is Levin tree search with context models (Orseau, Hutter and
// Lelis 2023, "Levin Tree Search with Context Models", IJCAI; LTS itself is
// Orseau, Lelis, Lattimore and Weber 2018, "Single-Agent Policy Tree Search
// With Guarantees", NeurIPS), over single player moves as the paper plays
// Boxoban: four actions.
//
// Search (Search) is best-first on the Levin cost d(n)/π(n), d the node's
// depth in moves and π the product of the policy's probabilities of the
// moves from the start. Every node it expands has a cost no greater than the
// solution node n* it returns, and the probabilities of a set of nodes none
// of which is an ancestor of another sum to at most 1, so the expansions
// are at most d(n*)/π(n*) (the 2018 paper's theorem): the bound the solver
// reports for its solution (Bound). Duplicate states are cut (a state is
// expanded once, by its cheapest path), which keeps the expanded nodes a
// tree and the bound; moves that push a box onto a dead square or into a
// position package deadlock proves dead (frozen boxes, corrals, …) are
// left out and the policy renormalised over the rest.
//
// The policy (Model) is a context model: small patterns of the squares
// around the player (tiles of 3×3, 2×2, 1×2 and 2×1 squares at fixed
// offsets), the last move, and — beyond the paper's local patterns — what
// each of the four moves does (a step towards a box off its goal, a push
// nearer a goal, …) each select, hashed, a row of four weights; a move's
// probability is the softmax, over the legal moves, of the sum of the
// active rows' weights for it (a product of experts), mixed with a little
// of the uniform policy so that no move is ever impossible. The log loss
// of a solution's moves is convex in the weights; Train fits them by
// online gradient steps, on each solution in the eight symmetries of the
// board, inside the bootstrap loop of Jabbari Arfaee, Zilles and Holte
// (2011) as the 2023 paper uses it: try every unsolved training level
// within a budget of expansions, train on the solutions found, double the
// budget when too few new levels solve. The training levels are package
// generate's, never a test collection.
package lts
