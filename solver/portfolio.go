package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"soko/level"
)

// Portfolio is a Solver made of several strategies, its Members, each with
// its share of the budget, run by one scheduler, the rounds (rounds.go).
//
// A member is a registered solver named by Member.Name with its own
// Member.Params, any Solver value in Member.Solver (then Name is only its
// label), or a Resumable in Member.Resumable. Shares are relative:
// {astar 1, greedy 4} gives astar a fifth. A member with share 0 does not
// run, so a parameter can switch a strategy off. With Exhaustive set, the
// member's "no solution" is taken as a proof (a complete search with sound
// pruning, such as astar) and ends the portfolio with NoSolution; any other
// member's unsuccessful end only hands on to the others.
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
// The rounds: the member that has had the least for its weight (its
// share) goes next, the first in list order on ties. A run-once member
// runs once, to the end of its share: share / (the shares of the members
// still to start and of the resumable members still in) of the time,
// nodes and iterations left when it starts (the last all that is left),
// so one that gives up early hands what it did not use on to the others.
// Members made only of run-once ones thus run one after another in list
// order. A resumable member runs in slices, each resumed where the last
// paused: the resumable members' shares are set together when the first
// of them starts, as a run-once member's would be; each slice is as long
// as all the member has had so far (at least a sixteenth of its share,
// its Opening besides on the first, and ending at the share at the
// latest while the member has had less), so the slices double and every
// member reaches any part of its share at about the same time (under a
// longer limit than Early, the shares so far are Early's until the run
// has gone on for Early). A member that stalls (Pause) in two slices in a
// row has its weight halved, down to an eighth of its share (with threads,
// to a thread's worth, a k-th of the shares, where its share is more), and
// its share back when it improves. Before each slice a Sharer takes what
// the others know (with threads, see below). The budget's own limits end
// a resumable member for good at any point; the member alone left in the
// rounds runs to the end. A late member (Member.Late) joins once the
// others have had that much of their own time together, and only then
// takes its share of what is left; until it joins the others' shares
// leave it out. One with a ShareBefore runs from the start on that share
// instead, and takes its own share then. With threads a late member joins
// at once.
//
// With no time, node or iteration limit a run-once member runs until it
// ends, so the next starts only then (give the others share 0 to run one
// strategy alone). A member's time is enforced by its own budget and by a
// context deadline, so a member that only watches its context is stopped
// at its share too. Node and iteration limits bound each member by what
// the slices that have ended left over. The members that may hold memory
// at once never hold more than the memory budget together: with one
// thread it is one pool, and the member running may take what the paused
// members do not hold (only it grows); with more, every member still in
// gets a like part.
//
// Options.Threads (soko --threads N) says how many members may run at
// once: k = min(N, members with a share). The rounds then start the next
// slice whenever one of k workers comes free, each share scaled by k (no
// more than what is left), the memory split k ways at least; members
// running side by side may together expand more than a node limit and
// are not repeatable. A Sharer reads only the members not running: those
// paused when its slice starts, then those that pause while it runs (it
// stops reading one before that one starts again); its first slice shares
// nothing. Every slice is run through Run, so its solution is replayed by
// the verifier before it counts. The first verified solution cancels the
// slices still running and is the portfolio's result.
//
// Member i runs with seed Options.Seed + i and one thread. With one thread
// the order, the budgets in nodes and iterations, and the seeds depend only
// on the options and what the members did, so a run under a node or
// iteration limit is repeated exactly by a run with the same seed; under a
// time limit each member is as repeatable as it is alone.
//
// Stats.Strategy names the member that solved the level. Expanded,
// Generated, Stored, Iterations, TreeSize and UniqueStates are summed over
// the members that ran (the work done); Bound is the largest bound any
// member proved; Bytes is the most the members held at once; Elapsed is
// the portfolio's wall-clock time. Counts holds each member's expanded
// states as "NAME.expanded", under a time limit its own time in
// milliseconds as "NAME.own_ms", and its own counters as "NAME.KEY". Progress
// events carry the same sums, with Strategy naming the member that sent
// the event.
//
// When no member solves the level, the status is NoSolution if an
// Exhaustive member proved there is none; Cancelled or TimeLimit if the
// caller's context ended; the limit that left nothing for the next slice
// when one could not start; otherwise the status of the last member that
// ended, GaveUp for a member's NoSolution that is not a proof. A member's error ends the portfolio with that error, naming the
// member, unless a solution was found first.
//
// With Options.Trace set, each member traces to a view named after it
// (Trace.Strategy); the portfolio writes a "member" record as each run-once
// member ends (its status, budget and counters) and a "slice" record after
// each slice of a resumable one (docs/fess.md, "Tracing").
type Portfolio struct {
	Members []Member
	// Since is when the budget's time started; zero means when Solve is
	// called. A solver that builds tables its members share before it
	// calls Solve sets it to its own start, so that the set-up counts
	// against the time limit.
	Since time.Time
	// Early, when above zero, makes a run under a longer time limit begin
	// as a run limited to Early: the run-once members' times and the
	// resumable members' shares are cut from Early until the run has gone
	// on for that long, and then the shares grow in proportion to the
	// limit, so a longer limit finds no solution later than Early would;
	// a slice running then pauses, to take its share. A member alone in
	// the portfolio has its share of the limit from the start, as with
	// Early zero.
	Early time.Duration
}

// entrants checks the members and returns those with a share, less the
// late ones in a run without a time limit (timed false) where a member
// that is not late has one.
func (p Portfolio) entrants(timed bool) ([]*entrant, error) {
	dropLate := !timed && slices.ContainsFunc(p.Members, func(m Member) bool { return m.Late == 0 && m.Share > 0 })
	var out []*entrant
	seen := map[string]bool{}
	sum := 0.0
	for i, m := range p.Members {
		switch {
		case m.Name == "":
			return nil, fmt.Errorf("portfolio member %d has no name", i+1)
		case seen[m.Name]:
			return nil, fmt.Errorf("portfolio member %s is named twice", m.Name)
		case math.IsNaN(m.Share) || math.IsInf(m.Share, 0) || m.Share < 0:
			return nil, fmt.Errorf("portfolio member %s: share %v is not a finite number at least 0", m.Name, m.Share)
		case math.IsNaN(m.ShareBefore) || math.IsInf(m.ShareBefore, 0) || m.ShareBefore < 0:
			return nil, fmt.Errorf("portfolio member %s: share before it joins %v is not a finite number at least 0", m.Name, m.ShareBefore)
		case m.Late < 0 || m.Late > 0 && m.Resumable == nil:
			return nil, fmt.Errorf("portfolio member %s: a late start (%v) is for a resumable member, and not negative", m.Name, m.Late)
		}
		seen[m.Name] = true
		s := m.Solver
		if s == nil && m.Resumable == nil {
			e, ok := Lookup(m.Name)
			if !ok {
				return nil, fmt.Errorf("portfolio member %s is not a registered solver", m.Name)
			}
			if err := CheckParams(e, m.Params); err != nil {
				return nil, fmt.Errorf("portfolio member %w", err)
			}
			s = e.New()
		}
		if m.Share > 0 && !(dropLate && m.Late > 0) {
			sum += m.Share
			out = append(out, &entrant{Member: m, index: i, solver: s, weight: m.Share})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("portfolio: no member has a share of the budget")
	}
	if math.IsInf(sum, 0) {
		return nil, errors.New("portfolio: the members' shares add up to more than a float64 holds")
	}
	return out, nil
}

// Solve implements Solver.
func (p Portfolio) Solve(ctx context.Context, l *level.Level, opts Options) (Result, error) {
	members, err := p.entrants(opts.Budget.Time > 0)
	if err != nil {
		return Result{}, err
	}
	rs := &rounds{members: members, opts: opts, k: min(max(opts.Threads, 1), len(members)), start: p.Since}
	if len(members) > 1 {
		rs.early = p.Early // a member alone has no one to begin beside
	}
	if rs.k > 1 {
		// With threads a late member joins at once: the others keep a
		// thread's worth of the rounds, as they have alone, and it takes
		// what the threads add.
		for _, m := range members {
			m.Late = 0
		}
	}
	for _, m := range members {
		if m.Late > 0 && m.ShareBefore > 0 {
			// It runs as a member that is not late until it grows.
			m.growAt, m.grownShare, m.Late = m.Late, m.Share, 0
			m.Share, m.weight = m.ShareBefore, m.ShareBefore
		}
	}
	if rs.start.IsZero() {
		rs.start = time.Now()
	}
	return rs.solve(ctx, l)
}

// TraceMember writes to t (nil: tracing off) the "member" record of a
// member that ended with res, or err, on budget b: a run-once member's, or
// a resumable one's that traces no end of its own, when the rounds end it.
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

// portion is the part of left a member gets: all of it when all is set,
// else left·part, at least 1 (a zero budget would mean no limit).
func portion(left int64, part float64, all bool) int64 {
	if all || !(part < 1) {
		return left
	}
	return max(int64(float64(left)*part), 1)
}
