package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"soko/level"
)

// Member is one strategy of a Portfolio.
type Member struct {
	// Name labels the member in Stats.Strategy and Stats.Counts. When
	// Solver is nil it is also the registered solver the member runs.
	Name string
	// Solver is the strategy; nil means the solver registered under Name.
	Solver Solver
	// Params are the member's own parameters; for a registered solver
	// they are checked with CheckParams before anything runs.
	Params map[string]string
	// Share is the member's relative share of the budget: finite, at
	// least 0. A member with share 0 does not run.
	Share float64
	// Exhaustive says that the member's NoSolution proves the level has
	// no solution, which ends the portfolio.
	Exhaustive bool
}

// Portfolio is a Solver made of several strategies, its Members, each with
// its share of the budget (issue 12 item 6).
//
// A Portfolio lists its Members in the order they start. A member is a
// registered solver named by Member.Name with its own Member.Params, or any
// Solver value in Member.Solver (then Name is only its label). Shares are
// relative: {astar 1, greedy 4} gives astar a fifth. A member with share 0
// does not run, so a parameter can switch a strategy off. With Exhaustive
// set, the member's "no solution" is taken as a proof (a complete search
// with sound pruning, such as astar) and ends the portfolio with
// NoSolution; any other member's unsuccessful end only hands on to the next.
//
// A registered portfolio whose members depend on its own parameters reads
// them in Solve and builds the Portfolio there (see smallLevels, registered
// as "portfolio"). Tables the members share are built first and handed to
// the members' Solver values; Portfolio.Since makes that time count:
//
//	func (s mySolver) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
//		start := time.Now()
//		greedy, err := opts.Real(greedyShareParam) // 0 switches greedy off
//		if err != nil {
//			return solver.Result{}, err
//		}
//		plan, err := buildPlan(ctx, l) // shared by the two plan strategies
//		if err != nil {
//			return solver.Result{}, err
//		}
//		p := solver.Portfolio{Since: start, Members: []solver.Member{
//			{Name: "plan", Solver: planSearch{plan}, Share: 4},
//			{Name: "opened", Solver: openedSearch{plan}, Share: 2},
//			{Name: "greedy", Params: map[string]string{"rooms": "1"}, Share: greedy},
//		}}
//		return p.Solve(ctx, l, opts)
//	}
//
// Options.Threads (soko --threads N) says how many members may run side by
// side: k = min(N, members with a share). Members start in list order as
// threads come free; each is run through Run, so its solution is replayed by
// the verifier before it counts. The first verified solution cancels the
// members still running and is the portfolio's result.
//
// Budgets, with k = 1 (the default): members run one after another. Member i
// gets share_i / (share_i + the shares of the members after it) of the time,
// nodes and iterations left when it starts, and the last member all that is
// left; so a member that gives up early hands its unused budget on to those
// after it, in proportion to their shares. With k > 1 a member that starts
// while others still wait for a thread gets that part of k times what is
// left (but no more than is left), and the last k members run until the
// budget ends. With no time, node or iteration limit a member runs until
// it ends, so the next starts only then (give the others share 0 to run
// one strategy alone). A member's time is enforced by its own budget and by a
// context deadline, so a member that only watches its context is stopped at
// its share too. Node and iteration limits bound each member by what the
// members that have finished left over; with k > 1 the members running side
// by side may together expand more than the limit. The memory budget is
// split evenly between the k members that may run at once.
//
// Member i runs with seed Options.Seed + i and one thread. With one thread
// the order, the budgets in nodes and iterations, and the seeds depend only
// on the options, so a run under a node or iteration limit is repeated
// exactly by a run with the same seed; under a time limit each member is as
// repeatable as it is alone.
//
// Stats.Strategy names the member that solved the level. Expanded,
// Generated, Stored, Iterations, TreeSize and UniqueStates are summed over
// the members that ran (the work done); Bound is the largest bound any
// member proved; Bytes is the most one member held with one thread and the
// sum over the members with more; Elapsed is the portfolio's wall-clock
// time. Counts holds each member's expanded states as "NAME.expanded" and
// its own counters as "NAME.KEY". Progress events carry the same sums, with
// Strategy naming the member that sent the event.
//
// When no member solves the level, the status is NoSolution if an
// Exhaustive member proved there is none; Cancelled or TimeLimit if the
// caller's context ended; the limit that left nothing for the next member
// when one could not start; otherwise the status of the last member, in
// list order, that ran. A member's error ends the portfolio with that error,
// naming the member, unless a solution was found first.
//
// With Options.Trace set, each member traces to a view named after it
// (Trace.Strategy), and the portfolio writes a "member" record as each
// ends: its status, budget and counters.
type Portfolio struct {
	Members []Member
	// Since is when the budget's time started; zero means when Solve is
	// called. A solver that builds tables its members share before it
	// calls Solve sets it to its own start, so that the set-up counts
	// against the time limit.
	Since time.Time
}

// strategy is a member ready to run.
type strategy struct {
	Member
	index  int // in Portfolio.Members, for the seed
	solver Solver
}

// strategies checks the members and returns those with a share.
func (p Portfolio) strategies() ([]strategy, error) {
	var out []strategy
	seen := map[string]bool{}
	for i, m := range p.Members {
		switch {
		case m.Name == "":
			return nil, fmt.Errorf("portfolio member %d has no name", i+1)
		case seen[m.Name]:
			return nil, fmt.Errorf("portfolio member %s is named twice", m.Name)
		case math.IsNaN(m.Share) || math.IsInf(m.Share, 0) || m.Share < 0:
			return nil, fmt.Errorf("portfolio member %s: share %v is not a finite number at least 0", m.Name, m.Share)
		}
		seen[m.Name] = true
		s := m.Solver
		if s == nil {
			e, ok := Lookup(m.Name)
			if !ok {
				return nil, fmt.Errorf("portfolio member %s is not a registered solver", m.Name)
			}
			if err := CheckParams(e, m.Params); err != nil {
				return nil, fmt.Errorf("portfolio member %w", err)
			}
			s = e.New()
		}
		if m.Share > 0 {
			out = append(out, strategy{Member: m, index: i, solver: s})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("portfolio: no member has a share of the budget")
	}
	return out, nil
}

// outcome is how one member ended.
type outcome struct {
	at  int // index into the strategies
	res Result
	err error
}

// Solve implements Solver.
func (p Portfolio) Solve(parent context.Context, l *level.Level, opts Options) (Result, error) {
	members, err := p.strategies()
	if err != nil {
		return Result{}, err
	}
	k := min(max(opts.Threads, 1), len(members))
	start := p.Since
	if start.IsZero() {
		start = time.Now()
	}
	t := &tally{members: members, parallel: k > 1, start: start, progress: opts.Progress,
		ran: make([]bool, len(members)), live: make([]Stats, len(members)), last: make([]Status, len(members))}
	var deadline time.Time
	if opts.Budget.Time > 0 {
		deadline = t.start.Add(opts.Budget.Time)
	}
	// ctx is cancelled here only when the portfolio has its answer: a
	// solution, a proof that there is none, or an error.
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	done := make(chan outcome, len(members)) // room for every outcome: a member's send never waits
	var (
		next, running, winner = 0, 0, -1
		proof                 bool
		firstErr              error
		starved               Status // the limit that left nothing for the next member
	)
	for {
		for running < k && next < len(members) && ctx.Err() == nil && starved == Solved {
			b, until, st := t.budget(next, k, opts.Budget, deadline)
			if st != Solved {
				starved = st
				break
			}
			t.start1(ctx, next, b, until, l, opts, done)
			next++
			running++
		}
		if running == 0 {
			break
		}
		o := <-done
		running--
		t.finish(o.at, o.res.Stats)
		m := members[o.at]
		switch {
		case winner >= 0 || firstErr != nil || proof: // ended after the answer
		case o.err != nil:
			firstErr = fmt.Errorf("portfolio member %s: %w", m.Name, o.err)
			cancel()
		case o.res.Status == Solved:
			winner = o.at
			t.solution = o.res
			cancel()
		case o.res.Status == NoSolution && m.Exhaustive:
			proof = true
			cancel()
		default:
			t.last[o.at] = o.res.Status
		}
	}

	res := Result{Stats: t.total()}
	res.Stats.Elapsed = time.Since(t.start)
	switch {
	case winner >= 0:
		res.Status, res.Moves, res.Pushes = Solved, t.solution.Moves, t.solution.Pushes
		res.Stats.Strategy = members[winner].Name
		return res, nil
	case firstErr != nil:
		return Result{}, firstErr
	case proof:
		res.Status = NoSolution
	case errors.Is(parent.Err(), context.DeadlineExceeded):
		res.Status = TimeLimit
	case parent.Err() != nil:
		res.Status = Cancelled
	case starved != Solved:
		res.Status = starved
	default:
		res.Status = t.last[next-1] // next > 0: the first member always starts
	}
	return res, nil
}

// tally keeps the members' statistics and sends the portfolio's progress
// events; members running side by side call note at once.
type tally struct {
	members  []strategy
	parallel bool
	start    time.Time
	progress func(Progress)
	solution Result

	mu   sync.Mutex
	ran  []bool   // which members started
	live []Stats  // each member's latest statistics; final once it ended
	last []Status // how each member that ended without an answer ended
	used Budget   // nodes and iterations spent by the members that ended
}

// start1 runs member i under budget b (and the deadline until, when not
// zero) and sends its outcome to done: on the caller's goroutine when
// members run one at a time (so that a caller locked to its thread, as
// soko bench is to measure CPU time, runs them there), else on a goroutine
// of its own.
func (t *tally) start1(ctx context.Context, i int, b Budget, until time.Time, l *level.Level, opts Options, done chan<- outcome) {
	m := t.members[i]
	mctx, mcancel := ctx, context.CancelFunc(func() {})
	if !until.IsZero() {
		mctx, mcancel = context.WithDeadline(ctx, until)
	}
	mopts := Options{Budget: b, Seed: opts.Seed + uint64(m.index), Params: m.Params, Model: opts.Model, Threads: 1,
		Trace: opts.Trace.Strategy(m.Name)}
	if t.progress != nil {
		mopts.Progress = func(ev Progress) { t.note(i, ev) }
	}
	t.mu.Lock()
	t.ran[i] = true
	t.mu.Unlock()
	run := func() {
		defer mcancel()
		res, err := Run(mctx, m.solver, l, mopts)
		TraceMember(mopts.Trace, res, b, err)
		done <- outcome{i, res, err}
	}
	if t.parallel {
		go run()
	} else {
		run()
	}
}

// TraceMember writes to t (nil: tracing off) the "member" record of a
// portfolio member that ended with res, or err, on budget b; a solver that
// schedules its own members, as fess's rounds do, writes it too.
func TraceMember(t *Trace, res Result, b Budget, err error) {
	if t == nil {
		return
	}
	rec := memberRecord{Status: res.Status.String(), Budget: TraceSeconds(b.Time), Nodes: b.Nodes,
		Expanded: res.Stats.Expanded, Generated: res.Stats.Generated, Stored: res.Stats.Stored, Elapsed: TraceSeconds(res.Stats.Elapsed)}
	if err != nil {
		rec.Status, rec.Error = "error", err.Error()
	}
	t.Write("member", rec)
}

// memberRecord is the trace record of a member that ended: how (its
// status, or "error" with the error), on what budget (seconds, nodes; 0
// for none), and its counters.
type memberRecord struct {
	Status    string  `json:"status"`
	Error     string  `json:"error,omitempty"`
	Budget    float64 `json:"budget_s"`
	Nodes     int64   `json:"budget_nodes"`
	Expanded  int64   `json:"expanded"`
	Generated int64   `json:"generated"`
	Stored    int64   `json:"stored"`
	Elapsed   float64 `json:"elapsed_s"`
}

// budget returns member i's budget and deadline when k members may run at
// once, or the limit that leaves it nothing.
func (t *tally) budget(i, k int, total Budget, deadline time.Time) (Budget, time.Time, Status) {
	t.mu.Lock()
	defer t.mu.Unlock()
	last := i >= len(t.members)-k
	rest := 0.0
	for _, m := range t.members[i:] {
		rest += m.Share / t.members[i].Share // relative to member i's, so that no sum overflows
	}
	part := float64(k) / rest
	var b Budget
	var until time.Time
	if total.Time > 0 {
		now := time.Now()
		left := deadline.Sub(now)
		if left <= 0 {
			return b, until, TimeLimit
		}
		b.Time = time.Duration(portion(int64(left), part, last))
		until = now.Add(b.Time)
	}
	if total.Nodes > 0 {
		left := total.Nodes - t.used.Nodes
		if left <= 0 {
			return b, until, NodeLimit
		}
		b.Nodes = portion(left, part, last)
	}
	if total.Iterations > 0 {
		left := total.Iterations - t.used.Iterations
		if left <= 0 {
			return b, until, IterationLimit
		}
		b.Iterations = portion(left, part, last)
	}
	if total.Memory > 0 {
		b.Memory = max(total.Memory/int64(k), 1)
	}
	return b, until, Solved
}

// portion is the part of left a member gets: all of it for the last
// members, else left·part, at least 1 (a zero budget would mean no limit).
func portion(left int64, part float64, last bool) int64 {
	if last || !(part < 1) {
		return left
	}
	return max(int64(float64(left)*part), 1)
}

// finish records the final statistics of member i.
func (t *tally) finish(i int, s Stats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live[i] = s
	t.used.Nodes += s.Expanded
	t.used.Iterations += s.Iterations
}

// note forwards member i's progress event with the portfolio's sums.
func (t *tally) note(i int, ev Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live[i] = ev.Stats
	out := Progress{Stats: t.sum(), Board: ev.Board, Detail: ev.Detail}
	out.Elapsed = time.Since(t.start)
	out.Strategy = t.members[i].Name
	t.progress(out)
}

// total returns the members' statistics summed.
func (t *tally) total() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sum()
}

// sum adds up the members' statistics as the comment at the top says;
// t.mu is held.
func (t *tally) sum() Stats {
	var out Stats
	for i, s := range t.live {
		out.Expanded += s.Expanded
		out.Generated += s.Generated
		out.Stored += s.Stored
		out.Iterations += s.Iterations
		out.TreeSize += s.TreeSize
		out.UniqueStates += s.UniqueStates
		out.Bound = max(out.Bound, s.Bound)
		if t.parallel {
			out.Bytes += s.Bytes
		} else {
			out.Bytes = max(out.Bytes, s.Bytes)
		}
		if !t.ran[i] {
			continue
		}
		name := t.members[i].Name
		if out.Counts == nil {
			out.Counts = map[string]int64{}
		}
		out.Counts[name+".expanded"] = s.Expanded
		for key, n := range s.Counts {
			out.Counts[name+"."+key] = n
		}
	}
	return out
}
