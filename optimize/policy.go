package optimize

import (
	"context"
	"fmt"
	"time"

	"soko/heuristic"
	"soko/level"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

// Short by default (issue 27 item 1): soko solve, soko bench and the web
// page's solve run a search through Solve, which hands the verified
// solution to the optimizer within the level's time limit. The policy:
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
//     memory is the level's memory limit, at most DefaultMemory.
//
// The solver's own solution is verified by solver.Run, the optimized one
// by Optimize; both are replayed by package verify.

// MinTime is the least time the optimizer has within a time limit (unless
// a quarter of the limit is less): the part of the limit the search does
// not get.
const MinTime = 100 * time.Millisecond

// UnlimitedTime is the optimizer's time when the level has no time limit.
const UnlimitedTime = 10 * time.Second

// WanderRatio is how many times the start's lower bound a solution's pushes
// must be for Solve to search the level again with A* before optimizing.
const WanderRatio = 3

// Policy says whether and how Solve shortens a solution.
type Policy struct {
	Off    bool   // return the solver's solution as it is
	Metric Metric // what to shorten first
}

// ParsePolicy reads the policy as soko bench's solver specs write it
// (optimize=VALUE): "off", or a metric ("pushes", the default, or "moves";
// "on" is pushes).
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "off":
		return Policy{Off: true}, nil
	case "on", "":
		return Policy{}, nil
	}
	m, err := ParseMetric(s)
	if err != nil {
		return Policy{}, fmt.Errorf("optimize=%s: want on, off, pushes or moves", s)
	}
	return Policy{Metric: m}, nil
}

// String is the policy as ParsePolicy reads it: "off", "pushes" or "moves".
func (p Policy) String() string {
	switch {
	case p.Off:
		return "off"
	case p.Metric == Moves:
		return "moves"
	}
	return "pushes"
}

// reserve is the part of a time limit kept from the search.
func reserve(limit time.Duration) time.Duration { return min(MinTime, limit/4) }

// SearchBudget is the budget the search gets out of the level's budget b.
func (p Policy) SearchBudget(b solver.Budget) solver.Budget {
	if !p.Off && b.Time > 0 {
		b.Time -= reserve(b.Time)
	}
	return b
}

// Time is the optimizer's time after a search that took elapsed of the
// level's time limit (0: none).
func (p Policy) Time(limit, elapsed time.Duration) time.Duration {
	if limit <= 0 {
		return UnlimitedTime
	}
	return min(limit/2, max(limit-elapsed, reserve(limit)))
}

// ResolveTime is the time A* gets to search again for a wandering
// solution after a search that took elapsed of the level's time limit (0:
// none): what is left of the limit after a quarter of it (or all that is
// left, when less) kept for the optimizer, at most a quarter; 0 when that
// is less than MinTime. The optimizer then gets its Time after both.
func (p Policy) ResolveTime(limit, elapsed time.Duration) time.Duration {
	if limit <= 0 {
		return UnlimitedTime
	}
	kept := min(limit/4, max(limit-elapsed, reserve(limit))) // for the optimizer
	t := min(limit/4, limit-elapsed-kept)
	if t < MinTime {
		return 0
	}
	return t
}

// progressEvery is the shortest time between two progress events of the
// optimizer in Solve.
const progressEvery = 100 * time.Millisecond

// Outcome is what Solve returns.
type Outcome struct {
	// Result is the search's result with the final solution: Moves and
	// Pushes are the optimized solution's when the optimizer ran. Its
	// Stats are the search's (Stats.Elapsed its time alone).
	solver.Result
	Found     Score         // the solver's own solution, when Status is Solved
	Resolved  Score         // A*'s solution when the found one wandered and A* solved the level in its time (zero otherwise)
	Optimized bool          // the optimizer ran on it
	Complete  bool          // and ran its passes to their end (not stopped by its time, the context or memory)
	Time      time.Duration // the optimizer's time
}

// Solve runs s on l with solver.Run within opts.Budget less the
// optimizer's reserve, then, unless p.Off, shortens the solution with
// Optimize for the policy's time (above). When ctx is cancelled during the
// optimization, the shortest solution found so far is returned, with
// Complete false. An error of the optimizer is returned with the search's
// result (its solution unoptimized).
func Solve(ctx context.Context, s solver.Solver, l *level.Level, opts solver.Options, p Policy) (Outcome, error) {
	start := time.Now()
	limit := opts.Budget.Time
	opts.Budget = p.SearchBudget(opts.Budget)
	res, err := solver.Run(ctx, s, l, opts)
	out := Outcome{Result: res}
	if err != nil || res.Status != solver.Solved {
		return out, err
	}
	out.Found = Score{Pushes: res.Pushes, Moves: len(res.Moves)}
	if p.Off || ctx.Err() != nil {
		return out, nil
	}
	t0 := time.Now()
	moves := res.Moves
	if a, ok := p.resolve(ctx, l, opts, res.Stats, out.Found, limit, time.Since(start)); ok {
		out.Resolved, moves = Score{Pushes: a.Pushes, Moves: len(a.Moves)}, a.Moves
	}
	octx, cancel := context.WithTimeout(ctx, p.Time(limit, time.Since(start)))
	defer cancel()
	o := Options{Metric: p.Metric, Memory: DefaultMemory}
	if m := opts.Budget.Memory; m > 0 && m < o.Memory {
		o.Memory = m
	}
	if opts.Progress != nil {
		// As a solver does: about ten times a second at most, the first a
		// tenth of a second in.
		last := t0
		o.Progress = func(pr Progress) {
			if now := time.Now(); now.Sub(last) >= progressEvery {
				last = now
				opts.Progress(solver.Progress{Stats: res.Stats, Detail: fmt.Sprintf("optimizing (%s): %d pushes, %d moves", pr.Pass, pr.Pushes, pr.Moves)})
			}
		}
	}
	r, err := Optimize(octx, l, moves, o)
	out.Time = time.Since(t0)
	if err != nil {
		return out, fmt.Errorf("optimize: %w", err)
	}
	out.Moves, out.Pushes = r.Moves, r.After.Pushes
	out.Optimized, out.Complete = true, r.Complete
	return out, nil
}

// resolve searches l again with A* when the solution found, of score found,
// wanders (WanderRatio) and the limit leaves it time (ResolveTime), and
// returns A*'s solution when it is shorter in the metric. A* runs on the
// level's budget of memory; its solution is verified by solver.Run.
func (p Policy) resolve(ctx context.Context, l *level.Level, opts solver.Options, stats solver.Stats, found Score, limit, elapsed time.Duration) (solver.Result, bool) {
	t := p.ResolveTime(limit, elapsed)
	if t <= 0 {
		return solver.Result{}, false
	}
	rctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	lb, ok := startBound(rctx, l)
	if !ok || found.Pushes < WanderRatio*max(lb, 1) {
		return solver.Result{}, false
	}
	if opts.Progress != nil {
		opts.Progress(solver.Progress{Stats: stats, Detail: fmt.Sprintf("searching again with astar: %d pushes found, at least %d needed", found.Pushes, lb)})
	}
	a, err := solver.Run(rctx, search.AStar{}, l, solver.Options{Budget: solver.Budget{Time: t, Memory: opts.Budget.Memory}})
	if err != nil || a.Status != solver.Solved || !p.Metric.Better(Score{Pushes: a.Pushes, Moves: len(a.Moves)}, found) {
		return solver.Result{}, false
	}
	return a, true
}

// startBound returns the pushes of the least-cost matching of l's boxes to
// its goals at the start (heuristic.PushMatching), false when there is none
// or ctx ended first.
func startBound(ctx context.Context, l *level.Level) (int, bool) {
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return 0, false
	}
	dist, err := b.PullDistances(ctx)
	if err != nil {
		return 0, false
	}
	lb, ok := heuristic.NewPushMatching(b, dist).Bound(b.Start())
	return int(lb), ok
}
