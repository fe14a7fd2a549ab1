package solve

import (
	"context"
	"fmt"
	"time"

	"soko/heuristic"
	"soko/level"
	"soko/optimize"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

// progressEvery is the shortest time between two progress events of the
// optimizer in Run.
const progressEvery = 100 * time.Millisecond

// Outcome is what Run returns.
type Outcome struct {
	// Result is the search's result with the final solution: Moves and
	// Pushes are the optimized solution's when the optimizer ran. Its
	// Stats are the search's (Stats.Elapsed its time alone).
	solver.Result
	Found     optimize.Score // the solver's own solution, when Status is Solved
	Resolved  optimize.Score // A*'s solution when the found one wandered and A* solved the level in its time (zero otherwise)
	Optimized bool           // the optimizer ran on it
	Complete  bool           // and ran its passes to their end (not stopped by its time, the context or memory)
	Time      time.Duration  // the optimizer's time, A*'s search again included
	SolveTime time.Duration  // from Run's start to the search's verified answer
}

// Events hear an answer as it grows; each is optional and called on Run's
// goroutine. Found comes once, the moment the search's solution is
// verified (before A* searches again or the optimizer runs), so that a
// user sees it at once; Improved each time the optimizer shortens it.
type Events struct {
	Found    func(Outcome)
	Improved func(optimize.Score)
}

// Run runs s on l with solver.Run within opts.Budget, then, unless p.Off,
// shortens the solution with optimize.Optimize for the policy's time
// (OptimizeTime; the package doc). When ctx is cancelled during the
// optimization, the shortest solution found so far is returned, with
// Complete false. An error of the optimizer is returned with the search's
// result (its solution unoptimized).
func Run(ctx context.Context, s solver.Solver, l *level.Level, opts solver.Options, p Policy) (Outcome, error) {
	start := time.Now()
	opts.Budget = p.SearchBudget(opts.Budget)
	res, err := solver.Run(ctx, s, l, opts)
	out := Outcome{Result: res, SolveTime: time.Since(start)}
	if err != nil || res.Status != solver.Solved {
		return out, err
	}
	out.Found = optimize.Score{Pushes: res.Pushes, Moves: len(res.Moves)}
	if p.Events.Found != nil {
		p.Events.Found(out)
	}
	if p.Off || ctx.Err() != nil {
		return out, nil
	}
	t0 := time.Now()
	lb, wanders := wandering(ctx, l, out.Found)
	octx, cancel := ctx, context.CancelFunc(func() {})
	t := p.OptimizeTime(out.Found, out.SolveTime, wanders)
	if t > 0 {
		octx, cancel = context.WithTimeout(ctx, max(t-time.Since(t0), 0))
	}
	defer cancel()
	moves, best := res.Moves, out.Found
	if a, ok := p.resolve(octx, l, opts, res.Stats, out.Found, lb, wanders, ResolveTime(t)); ok {
		best, moves = optimize.Score{Pushes: a.Pushes, Moves: len(a.Moves)}, a.Moves
		out.Resolved = best
		if p.Events.Improved != nil {
			p.Events.Improved(best)
		}
	}
	o := optimize.Options{Metric: p.Metric, Memory: optimize.DefaultMemory}
	if m := opts.Budget.Memory; m > 0 && m < o.Memory {
		o.Memory = m
	}
	if opts.Progress != nil || p.Events.Improved != nil {
		// As a solver does: about ten times a second at most, the first a
		// tenth of a second in.
		last := time.Now()
		o.Progress = func(pr optimize.Progress) {
			if p.Events.Improved != nil && p.Metric.Better(pr.Score, best) {
				best = pr.Score
				p.Events.Improved(pr.Score)
			}
			if now := time.Now(); opts.Progress != nil && now.Sub(last) >= progressEvery {
				last = now
				opts.Progress(solver.Progress{Stats: res.Stats, Detail: fmt.Sprintf("optimizing (%s): %d pushes, %d moves", pr.Pass, pr.Pushes, pr.Moves)})
			}
		}
	}
	r, err := optimize.Optimize(octx, l, moves, o)
	out.Time = time.Since(t0)
	if err != nil {
		return out, fmt.Errorf("optimize: %w", err)
	}
	out.Moves, out.Pushes = r.Moves, r.After.Pushes
	out.Optimized, out.Complete = true, r.Complete
	return out, nil
}

// wanderBoundTime bounds the time the start's lower bound may take
// (wandering): it is the least-cost matching of a board's boxes, quick on
// every level soko loads.
const wanderBoundTime = 500 * time.Millisecond

// wandering reports whether the solution found, of score found, wanders:
// has at least WanderRatio times the pushes of the start's lower bound
// lb, which it returns.
func wandering(ctx context.Context, l *level.Level, found optimize.Score) (int, bool) {
	bctx, cancel := context.WithTimeout(ctx, wanderBoundTime)
	defer cancel()
	lb, ok := startBound(bctx, l)
	return lb, ok && found.Pushes >= WanderRatio*max(lb, 1)
}

// resolve searches l again with A* for at most t when the solution found,
// of score found, wanders (start's lower bound lb), and returns A*'s
// solution when it is shorter in the metric. A* runs on the level's
// budget of memory; its solution is verified by solver.Run.
func (p Policy) resolve(ctx context.Context, l *level.Level, opts solver.Options, stats solver.Stats, found optimize.Score, lb int, wanders bool, t time.Duration) (solver.Result, bool) {
	if !wanders {
		return solver.Result{}, false
	}
	rctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	if opts.Progress != nil {
		opts.Progress(solver.Progress{Stats: stats, Detail: fmt.Sprintf("searching again with astar: %d pushes found, at least %d needed", found.Pushes, lb)})
	}
	a, err := solver.Run(rctx, search.AStar{}, l, solver.Options{Budget: solver.Budget{Time: t, Memory: opts.Budget.Memory}})
	if err != nil || a.Status != solver.Solved || !p.Metric.Better(optimize.Score{Pushes: a.Pushes, Moves: len(a.Moves)}, found) {
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
