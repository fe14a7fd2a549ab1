// Package solve is soko's front door to a solver: soko solve, soko bench
// and the web page's solve run a search through [Run], which verifies the
// solution (solver.Run), tells it at once (Events.Found), and hands it to
// the optimizer (package optimize), telling each shorter solution
// (Events.Improved): an answer at once, a short one soon after. The
// policy:
//
//   - The search gets the level's whole budget: time, nodes, iterations
//     and memory. Its answer's time is Outcome.SolveTime.
//   - The optimizer then gets a time of its own (Policy.Time): by default
//     AutoTime, which grows with the solution's pushes and with the time
//     the search took, between AutoFloor and AutoCap; measured so that
//     the median answer on XSokoban comes in under a second and the
//     solutions stay shorter than YASS's (docs/optimize.md). It stops
//     earlier when a turn over the whole solution finds nothing, which on
//     most short solutions is within milliseconds.
//   - A solution that wanders, with at least WanderRatio times the pushes
//     of the start's lower bound (the least-cost matching of boxes to
//     goals), gets AutoWander by default, and is first searched again by
//     A* (package search, push-optimal) in half the optimizer's time
//     (ResolveTime); the shorter of the two in the metric goes to the
//     optimizer for the rest. A search that
//     wanders to a solution of thousands of pushes where A* finds the few
//     dozen of the optimum leaves the optimizer a local search far from
//     the optimum (docs/optimize.md).
//   - With Policy.Time NoLimit the optimizer runs its passes to their end
//     (or to ctx's end) and A* gets UnlimitedTime.
//   - The optimizer's memory is the level's memory limit, at most
//     optimize.DefaultMemory; the search's tables are gone by then.
//
// The solver's own solution is verified by solver.Run, the optimized one
// by optimize.Optimize; both are replayed by package verify.
package solve
