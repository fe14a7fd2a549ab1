package fess

import (
	"context"
	"errors"
	"fmt"
	"time"

	"soko/level"
	"soko/search"
	"soko/solver"
)

// The rounds (issue 26 item 4; docs/fess.md, "The rounds"): with one
// thread, greedy runs first on its share as before, then the FESS
// strategies run in slices, each resumed where it paused, instead of each
// to the end of its share in turn. The strategy that has had the least
// time for its weight goes next, for a slice as long as all it has had so
// far, so the slices double and every strategy reaches any part of its
// share at about the same time: at 60 s each has had six times its 10 s.
// A strategy whose best cell did not change in a slice and has no node
// left waiting is stalled; stalled in stallSlices slices in a row, its
// weight halves (down to stallFloor of its share), so the others get its
// turns; a new best cell gives it back its share.
const (
	firstSlice  = 1.0 / 16 // a strategy's first slice, as a part of its share, besides its opening
	stallSlices = 2
	stallFloor  = 1.0 / 8 // the least weight a stalled strategy keeps, as a part of its share
)

// roundsParam switches the rounds off: the strategies then run one after
// another to the end of their shares (solver.Portfolio).
var roundsParam = solver.Param{Name: "rounds", Kind: solver.Bool, Default: "1",
	Doc: "run the FESS strategies in slices of growing length, each resumed where it paused, a stalled one yielding its turns (with one thread); 0: one after another, each to the end of its share"}

// runner is a FESS strategy resumed slice after slice: a solver.Solver of
// which each Solve runs one slice, so that solver.Run verifies its
// solution as it verifies every other.
type runner struct {
	s      *strategy
	index  int // in the strategy table, for the seed
	own    map[string]string
	whole  solver.Budget // its share of the budget, which its openings and focusing go by
	e      *engine       // nil before its first slice
	until  solver.Budget // the end of its next slice: its own time and expansions
	weight float64       // its share, less while it is stalled
	stalls int           // slices in a row it stalled in
	used   float64       // its slices so far: seconds, or expansions without a time limit
	stats  solver.Stats  // as of its last slice
	ran    bool
	// peers, for the back strategy, are the other strategies' engines
	// whose trees its search meets in its next slice (engine.peers);
	// behind, for the others, the back strategy's search, whose store
	// theirs meets (engine.behind).
	peers  []*engine
	behind *backward
}

// Solve implements solver.Solver: the runner's next slice, to r.until,
// within opts's budget (what is left of the portfolio's time, and its
// nodes counted from the strategy's start), which ends the strategy.
func (r *runner) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	guard := solver.NewGuard(ctx, opts)
	if r.e != nil {
		r.e.peers, r.e.behind = r.peers, r.behind
		return r.e.resume(guard, r.until)
	}
	whole := opts
	whole.Budget = r.whole
	whole.Budget.Memory = opts.Budget.Memory
	return start(l, guard, whole, r.s, func(e *engine) { e.until, e.peers, e.behind, r.e = r.until, r.peers, r.behind, e })
}

// engines returns the engines of the runners other than r whose forward
// search has begun.
func (rs *rounds) engines(r *runner) []*engine {
	var out []*engine
	for _, o := range rs.runners {
		if o != r && o.e != nil && o.e.begun && !o.s.back {
			out = append(out, o.e)
		}
	}
	return out
}

// behind returns the back strategy's search once it has begun, nil
// before or without one.
func (rs *rounds) behind() *backward {
	for _, o := range rs.runners {
		if o.s.back && o.e != nil {
			return o.e.back
		}
	}
	return nil
}

// opening returns the part of its share a strategy's opening takes
// (openings.go), which its first slice gets besides firstSlice.
func (s *strategy) opening() float64 {
	switch {
	case s.imagine:
		return imagineShare
	case s.park:
		return parkShare
	case s.onGoals, s.back:
		return 0
	}
	return replanShare // where peeling finds no order
}

// stalled reports whether the best cell is the one it was (before) and
// has no node left waiting.
func (e *engine) stalled(before int32) bool {
	if e.strat.back {
		return false // its progress is not in cells
	}
	return e.queue.best == before && len(e.queue.cells[before].wait) == 0
}

// rounds runs greedy (when on) and then the runners as the comment at the
// top says, under opts's budget, which has a time or a node limit.
type rounds struct {
	l       *level.Level
	opts    solver.Options
	start   time.Time
	greedy  *strategy // nil: off
	share   float64   // greedy's share and the runners', summed
	runners []*runner
	greedyS solver.Stats
	peak    int64 // the most bytes sum has seen the engines hold together
}

func (rs *rounds) solve(ctx context.Context) (solver.Result, error) {
	rs.start = time.Now()
	budget := rs.opts.Budget
	var deadline time.Time
	if budget.Time > 0 {
		deadline = rs.start.Add(budget.Time)
	}
	var nodes int64 // expanded by all so far
	if g := rs.greedy; g != nil {
		res, err := rs.runGreedy(ctx, deadline)
		if err != nil || res.Status == solver.Solved {
			return res, err
		}
		nodes = rs.greedyS.Expanded
	}
	// Each runner's whole share of what greedy left.
	rest := rs.share
	if rs.greedy != nil {
		rest -= float64(rs.greedy.share)
	}
	for _, r := range rs.runners {
		part := float64(r.s.share) / rest
		if budget.Time > 0 {
			r.whole.Time = time.Duration(float64(time.Until(deadline)) * part)
		}
		if budget.Nodes > 0 {
			r.whole.Nodes = max(int64(float64(budget.Nodes-nodes)*part), 1)
		}
	}
	last := solver.TimeLimit
	for ctx.Err() == nil {
		r := rs.pick()
		if r == nil {
			break
		}
		sb, st := rs.slice(r, deadline, nodes)
		if st != solver.Solved {
			last = st
			break
		}
		var before int32 = -1
		if r.e != nil && r.e.begun {
			before = r.e.queue.best
		}
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if sb.Time > 0 {
			sctx, cancel = context.WithDeadline(ctx, deadline)
		}
		if r.s.back {
			r.peers = rs.engines(r)
		} else {
			r.behind = rs.behind()
		}
		res, err := solver.Run(sctx, r, rs.l, rs.sliceOptions(r, sb))
		cancel()
		if err != nil {
			return solver.Result{}, fmt.Errorf("portfolio member %s: %w", r.s.name, err)
		}
		nodes += res.Stats.Expanded - r.stats.Expanded
		r.stats, r.ran = res.Stats, true
		rs.notePeak()
		var improved, stalled bool
		if r.e != nil && r.e.paused {
			improved, stalled = r.reweigh(before, budget.Time > 0)
		}
		rs.traceSlice(r, res, improved, stalled)
		switch {
		case res.Status == solver.Solved:
			out := solver.Result{Status: solver.Solved, Moves: res.Moves, Pushes: res.Pushes, Stats: rs.sum()}
			out.Stats.Strategy = r.s.name
			out.Stats.Elapsed = time.Since(rs.start)
			rs.end(solver.Cancelled, r)
			return out, nil
		case res.Status == solver.NoSolution:
			// Every FESS strategy is exhaustive: the end of its graph
			// proves there is no solution.
			out := solver.Result{Status: solver.NoSolution, Stats: rs.sum()}
			out.Stats.Elapsed = time.Since(rs.start)
			rs.end(solver.Cancelled, r)
			return out, nil
		case r.e == nil || !r.e.paused:
			last = res.Status
			r.weight = 0 // ended for good: out of the rounds
			r.drop()
		}
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		last = solver.TimeLimit
	case ctx.Err() != nil:
		last = solver.Cancelled
	}
	rs.end(last, nil)
	out := solver.Result{Status: last, Stats: rs.sum()}
	out.Stats.Elapsed = time.Since(rs.start)
	return out, nil
}

// reweigh counts the own time (or without a time limit the expansions) of
// runner r, paused, and sets its weight: its share back when its best cell
// changed in the slice from before (-1: none yet), halved after
// stallSlices slices in a row in which it stalled.
func (r *runner) reweigh(before int32, timed bool) (improved, stalled bool) {
	if timed {
		r.used = r.e.elapsed().Seconds()
	} else {
		r.used = float64(r.e.stats.Expanded)
	}
	improved = before < 0 || r.e.queue.best != before
	stalled = !improved && r.e.stalled(before)
	switch {
	case improved:
		r.weight, r.stalls = float64(r.s.share), 0
	case stalled:
		if r.stalls++; r.stalls >= stallSlices {
			r.weight = max(r.weight/2, float64(r.s.share)*stallFloor)
		}
	default:
		r.stalls = 0
	}
	return improved, stalled
}

// pick returns the runner still in the rounds that has had the least time
// for its weight (the first such in the table), nil when none is left.
func (rs *rounds) pick() *runner {
	var best *runner
	for _, r := range rs.runners {
		if r.weight > 0 && (best == nil || r.used/r.weight < best.used/best.weight) {
			best = r
		}
	}
	return best
}

// slice sets runner r's next slice (r.until) and returns its budget,
// which is all that is left, or the limit that leaves nothing. The slice
// is as long as all r has had so far, at least firstSlice of its share,
// its opening besides on the first; it has no end when r is the only
// runner left.
func (rs *rounds) slice(r *runner, deadline time.Time, nodes int64) (solver.Budget, solver.Status) {
	part := firstSlice
	if r.e == nil {
		part += r.s.opening()
	}
	alone := true
	for _, o := range rs.runners {
		if o != r && o.weight > 0 {
			alone = false
		}
	}
	var sb solver.Budget
	r.until = solver.Budget{}
	b := rs.opts.Budget
	if b.Time > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return sb, solver.TimeLimit
		}
		sb.Time = left
		if !alone {
			own := time.Duration(r.used * float64(time.Second))
			r.until.Time = own + max(own, time.Duration(float64(r.whole.Time)*part))
		}
	}
	if b.Nodes > 0 {
		left := b.Nodes - nodes
		if left <= 0 {
			return sb, solver.NodeLimit
		}
		sb.Nodes = r.stats.Expanded + left
		if b.Time <= 0 && !alone {
			r.until.Nodes = r.stats.Expanded + max(int64(r.used), int64(float64(r.whole.Nodes)*part), 1)
		}
	}
	if b.Memory > 0 {
		sb.Memory = max(b.Memory/int64(rs.live()), 1)
	}
	return sb, solver.Solved
}

// live returns the number of runners still in the rounds: the memory
// limit is shared among them, so that one that ended (on its memory, say,
// at 300 s) hands its part to the others.
func (rs *rounds) live() int {
	n := 0
	for _, r := range rs.runners {
		if r.weight > 0 {
			n++
		}
	}
	return max(n, 1)
}

// drop lets the engine of a runner out of the rounds go, with the memory
// it held (its statistics stay for the sums); the other strategies stop
// meeting its tree from their next slice on.
func (r *runner) drop() {
	r.e, r.peers, r.behind = nil, nil, nil
	r.stats.Bytes = 0
}

// sliceOptions returns the options of runner r's slice under budget sb.
func (rs *rounds) sliceOptions(r *runner, sb solver.Budget) solver.Options {
	o := solver.Options{Budget: sb, Seed: rs.opts.Seed + uint64(r.index), Params: r.own, Model: rs.opts.Model, Threads: 1,
		Trace: rs.opts.Trace.Strategy(r.s.name)}
	if rs.opts.Progress != nil {
		o.Progress = func(ev solver.Progress) {
			r.stats = ev.Stats
			out := solver.Progress{Stats: rs.sum(), Board: ev.Board, Detail: ev.Detail}
			out.Elapsed = time.Since(rs.start)
			out.Strategy = r.s.name
			rs.opts.Progress(out)
		}
	}
	return o
}

// runGreedy runs greedy first on its share, as solver.Portfolio would.
func (rs *rounds) runGreedy(ctx context.Context, deadline time.Time) (solver.Result, error) {
	g := rs.greedy
	part := float64(g.share) / rs.share
	var b solver.Budget
	gctx := ctx
	if rs.opts.Budget.Time > 0 {
		b.Time = max(time.Duration(float64(time.Until(deadline))*part), 1)
		var cancel context.CancelFunc
		gctx, cancel = context.WithTimeout(ctx, b.Time)
		defer cancel()
	}
	if rs.opts.Budget.Nodes > 0 {
		b.Nodes = max(int64(float64(rs.opts.Budget.Nodes)*part), 1)
	}
	b.Memory = rs.opts.Budget.Memory
	o := solver.Options{Budget: b, Seed: rs.opts.Seed, Params: map[string]string{}, Threads: 1, Trace: rs.opts.Trace.Strategy(g.name)}
	res, err := solver.Run(gctx, search.Greedy{}, rs.l, o)
	solver.TraceMember(o.Trace, res, b, err)
	if err != nil {
		return solver.Result{}, fmt.Errorf("portfolio member %s: %w", g.name, err)
	}
	rs.greedyS = res.Stats
	if res.Status == solver.Solved {
		res.Stats = rs.sum()
		res.Stats.Strategy = g.name
		res.Stats.Elapsed = time.Since(rs.start)
	}
	return res, nil
}

// end ends the runners still paused (but the one that found the answer)
// with status st, so that their traces have an end record.
func (rs *rounds) end(st solver.Status, winner *runner) {
	for _, r := range rs.runners {
		if r != winner && r.e != nil && r.e.paused {
			r.stats = r.e.stop(st).Stats
		}
	}
}

// sum adds up greedy's and the runners' statistics as solver.Portfolio
// does, but for Bytes: the runners' engines are all held at once, those
// dropped no more, and Bytes is the most they held together so far.
func (rs *rounds) sum() solver.Stats {
	out := solver.Stats{Counts: map[string]int64{}}
	add := func(name string, s solver.Stats) {
		out.Expanded += s.Expanded
		out.Generated += s.Generated
		out.Stored += s.Stored
		out.Counts[name+".expanded"] = s.Expanded
		for k, n := range s.Counts {
			out.Counts[name+"."+k] = n
		}
	}
	if rs.greedy != nil {
		add(rs.greedy.name, rs.greedyS)
	}
	for _, r := range rs.runners {
		if r.ran {
			add(r.s.name, r.stats)
		}
	}
	rs.notePeak()
	out.Bytes = rs.peak
	return out
}

// notePeak takes the bytes the engines hold now into the most they held
// together. It runs after every slice, before an engine that ended is
// dropped: sum alone runs only at progress reports and at the end, when the
// largest engines may have been let go (a bench without progress reported
// 114 MB for a run that ended on its 4.2 GB memory limit).
func (rs *rounds) notePeak() {
	held := rs.greedyS.Bytes
	for _, r := range rs.runners {
		if r.ran {
			held += r.stats.Bytes
		}
	}
	rs.peak = max(rs.peak, held)
}

// sliceRecord is the trace record of a slice: how it ended ("paused"
// when it did not), where it was to end (the strategy's own seconds and
// expansions; 0: at the end of the budget), the strategy's expansions and
// own time so far, its weight for the next, and whether its best cell
// changed or stalled.
type sliceRecord struct {
	Status   string  `json:"status"`
	Until    float64 `json:"until_s"`
	Nodes    int64   `json:"until_expanded"`
	Expanded int64   `json:"expanded"`
	Own      float64 `json:"own_s"`
	Weight   float64 `json:"weight,omitempty"`
	Improved bool    `json:"improved,omitempty"`
	Stalled  bool    `json:"stalled,omitempty"`
}

// traceSlice writes runner r's slice record, after its weight is set.
func (rs *rounds) traceSlice(r *runner, res solver.Result, improved, stalled bool) {
	t := rs.opts.Trace.Strategy(r.s.name)
	if t == nil {
		return
	}
	rec := sliceRecord{Status: res.Status.String(), Until: solver.TraceSeconds(r.until.Time), Nodes: r.until.Nodes,
		Expanded: res.Stats.Expanded, Own: solver.TraceSeconds(res.Stats.Elapsed)}
	if r.e != nil && r.e.paused {
		rec.Status, rec.Improved, rec.Stalled, rec.Weight = "paused", improved, stalled, r.weight
	}
	t.Write("slice", rec)
}
