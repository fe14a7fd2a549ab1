// Package solve is soko's front door to a solver: soko solve, soko bench
// and the web page's solve run a search through [Run], which verifies the
// solution (solver.Run) and hands it to the optimizer (package optimize)
// within the level's time limit: short by default. The policy:
//
//   - The search gets the time limit less a reserve, MinTime or a quarter
//     of the limit when that is smaller (10 s: 9.9 s), so that the
//     optimizer always has some time and the whole stays inside the limit.
//   - The optimizer gets what the search left, at most half the limit
//     and at least the reserve (10 s: from 0.1 s to 5 s). It stops
//     earlier when a turn over the whole solution finds nothing, which on
//     most levels is within milliseconds; on a long solution its vicinity
//     searches use all it gets, and more time finds more.
//   - A solution that wanders, with at least WanderRatio times the pushes
//     of the start's lower bound (the least-cost matching of boxes to
//     goals), is first searched again by A* (package search, push-optimal)
//     in what is left of the limit after a quarter of it kept for the
//     optimizer, at most a quarter; the shorter of the two in the metric goes to the
//     optimizer. A search that wanders to a solution of thousands of
//     pushes where A* finds the few dozen of the optimum leaves the
//     optimizer a local search far from the optimum (docs/optimize.md).
//   - Without a time limit (a node or iteration budget only, or none) the
//     optimizer, and a search again, each get UnlimitedTime.
//   - Node and iteration limits bound the search only; the optimizer's
//     memory is the level's memory limit, at most optimize.DefaultMemory.
//
// The solver's own solution is verified by solver.Run, the optimized one
// by optimize.Optimize; both are replayed by package verify.
package solve
