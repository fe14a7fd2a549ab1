// Package fess is the feature-space search (FESS) of Shoham and
// Schaeffer, "The FESS Algorithm: A Feature Based Approach to Single-Agent
// Search" (IEEE CoG 2020; README, References), with the Sokoban parts of
// Shoham's solver Festival. Not push-optimal: it trades optimality for
// reach. docs/fess.md gives the design in prose, what each strategy is
// for, and the measurements that chose each share and threshold.
//
// The files, in the paper's terms and then ours:
//
//   - engine.go: one search of one level, made of the parts below, and
//     its loop: pick a node from the cell queue, run the deadlock tier on
//     it, expand it.
//   - macro.go: box macro-moves, the paper's moves for Sokoban: one box
//     pushed to any square it reaches with the other boxes in place, over
//     a graph of (square, player side) states joined by one
//     articulation-point search per box. Dead squares are never entered;
//     PI-corral pruning keeps only the moves of the corral's boxes; stops
//     that only pass through a board-splitting tunnel are left out.
//   - plan.go: the packing plan, the paper's packing order by retrograde
//     analysis: the order in which the goals are filled, found by peeling
//     the goals' boxes off one by one, with, per step, the zone of squares
//     still in line with it (out of plan).
//   - features.go, hotspots.go: the feature space: boxes packed along the
//     plan, player regions (connectivity), boxes out of plan, hotspots
//     (Festival's blocking table); a node's cell is the best of these on
//     its path, the distance to the goals orders nodes within a cell.
//   - tree.go, keys.go: the search tree and the store of its positions,
//     keyed so that the backward search finds them too.
//   - queue.go: the cell loop: turns alternate between the best cell and a
//     round robin over all cells; within a cell the lightest node first;
//     focusing sends the best cell's empty turns to the best cell that has
//     nodes waiting.
//   - expand.go, advisors.go: expansion, and the advisors whose moves
//     weigh 0 where all others weigh 1, each a value a strategy's row
//     names. Nothing is pruned for weight: a search making every move is
//     complete over the macro-move graph without deadlocks.
//   - guide.go, guidetrain.go: the learned guide (package guide), one
//     more advisor where a model is given, and the examples soko
//     train-guide learns it from.
//   - deadlocks.go: the deadlock tier: frozen boxes, wall segments and
//     the level's deadlock table (built at set-up) on every move; learned
//     patterns (seeded with YASS's deadlock sets of
//     two boxes), the corral search, boxes cut off by boxes frozen on
//     goals and the matching only when a node comes up.
//   - backward.go, startmatch.go: the backward search over pull
//     macro-moves, which the forward search meets in the middle.
//   - back.go: the back strategy, a search of its own: the backward
//     search alone, greedy towards the start squares, in its own loop
//     (Sokolution's and YASS's searches from the solved position).
//   - openings.go: what a strategy runs first, each a value a row names:
//     imagine's imagined board (Festival's HF), the parking plans, and
//     the plan taken from the backward search where peeling finds no
//     order.
//   - parking.go, parksearch.go, parkpath.go: the parking plan (box moves
//     from, to, until: a box may be parked and moved on later), from a
//     pull search in which boxes pulled into the sink leave the board: a
//     region fixed at the start (park), or Festival's moving sink, the
//     largest groups of start squares still free (sink; ordered as
//     Festival's pull search where its own ordering finds no position to
//     start from, and always in the pull strategy).
//   - moves.go: which of a box's macro-moves a strategy makes: every
//     one, or YASS's packing-order moves (onto a goal not packed yet, to
//     its farthest squares, single pushes; Wheeler's summary of YASS,
//     README, References), a part of the graph, so no proof (the order
//     strategy).
//   - strategy.go: what a strategy is made of, as behaviours: the kind of
//     search (FESS, back, package search's greedy), its opening, the
//     moves it makes, its advisors and when it focuses. A strategy that
//     mixes behaviours already written is one row of the table; a new
//     behaviour is one file with its value, and the row.
//   - portfolio.go: the strategy table, each strategy one row with its
//     share of the budget, made into members of solver.Portfolio, whose
//     rounds (solver/rounds.go) run them in slices of growing length,
//     each resumed where it paused, a stalled strategy yielding its turns;
//     member.go: a strategy as such a member, its engine kept between
//     slices, and the knowledge the members share (back meets the
//     others' trees, they meet back's store); solver.go registers the
//     solver and its parameters.
//   - solution.go: the solution, replayed from the macro-moves (and the
//     backward path undone), and the counters.
//
// Every solution is expanded to pushes by replaying the macro-moves, then
// to LURD, and verified by solver.Run like every other solver's.
package fess
