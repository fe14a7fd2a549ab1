package solver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"sync"
	"time"

	"soko/level"
)

// The rounds: the one scheduler of a Portfolio's members (its
// documentation says what a caller sees). The member that has had the
// least for its weight goes next (the first such in the list), so a
// run-once member, which has had nothing until it runs, goes in list order
// before any resumable member has had its second slice. A resumable
// member's slice is as long as all it has had so far, at least firstSlice
// of its share (its Opening besides, on its first), so the slices double
// and every member reaches any part of its share at about the same time;
// below its share a slice ends there at the latest (sliceEnd), so at the
// limit each has had about its share.
// Under a limit longer than Portfolio.Early the shares are first cut from
// Early, as in a run of that limit, and grow with the limit once the run
// has gone on for Early (sharesLeft).
// A member that reports a slice stalled in stallSlices slices in a row has
// its weight halved (down to stallFloor of its share, and with threads
// not below a thread's worth: threadsWorth), so the others get its turns;
// one that improved gets its share back.
const (
	firstSlice  = 1.0 / 16 // a resumable member's first slice, as a part of its share, besides its opening
	stallSlices = 2
	stallFloor  = 1.0 / 8 // the least weight a stalled member keeps, as a part of its share
)

// entrant is a member in the rounds.
type entrant struct {
	Member
	index            int    // in Portfolio.Members, for the seed
	solver           Solver // the run-once member's solver; nil for a resumable one
	weight           float64
	used             float64 // its slices so far: seconds, or expansions without a time limit
	stalls           int     // slices in a row it stalled in
	whole            Budget  // its share of the budget, once it is set
	until            Budget  // the end of its next slice
	started, running bool
	paused           bool // a resumable member between slices
	// sharing: the slice running takes what the others know (Sharer);
	// with more than one thread not a member's first, whose set-up the
	// rounds would wait on to hand it more.
	sharing bool
	stats   Stats // as of its last slice
	live    Stats // the latest, progress events included
	// nodes: with threads and a node limit, the expansions its running
	// slice may take (nodeAllowance), held from the others until it ends.
	nodes int64
	// growAt: a late member running on its ShareBefore (Share, until
	// then), which takes grownShare once the others have had growAt of
	// their own time (grow); grown: its share of the budget is to be set
	// again when its next slice starts.
	growAt     time.Duration
	grownShare float64
	grown      bool
}

// resumable reports whether e runs in slices.
func (e *entrant) resumable() bool { return e.Resumable != nil }

// in reports whether e is still in the rounds.
func (e *entrant) in() bool { return e.weight > 0 }

// rounds runs a Portfolio's members under opts.
type rounds struct {
	members  []*entrant
	opts     Options
	k        int // members that may run at once
	start    time.Time
	deadline time.Time // zero: no time limit
	wholes   bool      // the resumable members' shares are set
	early    time.Duration
	extended bool // the shares have grown from Early to the limit

	mu    sync.Mutex
	spent Budget // nodes and iterations spent so far, by the slices that ended
	peak  int64  // the most bytes the members held at once so far
	// noted is when the last progress event went out: a slice's own guard
	// sends its first only after progressEvery of the slice, which the
	// rounds' first slices do not last, so the rounds send one when a
	// slice ends and none has gone out for as long (finish).
	noted time.Time
}

// outcome is how one slice ended.
type outcome struct {
	m     *entrant
	res   Result
	pause Pause
	err   error
	// panicked holds what a slice run on a goroutine of its own panicked
	// with, and its stack: the rounds stop the other slices, wait for them
	// and end the paused members, as after an error, then panic with it on
	// the caller's goroutine, as one thread does, so that a caller that
	// recovers (the web server) recovers it too, and nothing of the run
	// goes on after.
	panicked any
}

// solve runs the rounds to the first verified solution, a proof that there
// is none, an error, or the end of the budget.
func (rs *rounds) solve(parent context.Context, l *level.Level) (Result, error) {
	if rs.opts.Budget.Time > 0 {
		rs.deadline = rs.start.Add(rs.opts.Budget.Time)
	}
	// ctx is cancelled here only when the run has its answer: a solution,
	// a proof that there is none, or an error.
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	done := make(chan outcome, len(rs.members)) // room for every running slice: a send never waits
	var (
		running  int
		winner   *entrant
		solution Result
		proof    bool
		firstErr error
		starved  Status // the limit that left nothing for the next slice
		last     Status = TimeLimit
		panicked any    // what a slice on a goroutine of its own panicked with first
	)
	for {
		for running < rs.k && ctx.Err() == nil && starved == Solved {
			m := rs.pick()
			if m == nil {
				break
			}
			b, until, st := rs.budget(m)
			if st == nodesHeld {
				break // until a running slice ends and gives back what it did not spend
			}
			if st != Solved {
				starved = st
				break
			}
			m.sharing = rs.k == 1 || m.started
			if m.sharing {
				rs.share(m, nil)
			}
			rs.reshare(m)
			running++
			rs.run(ctx, m, b, until, l, done)
		}
		if running == 0 {
			break
		}
		o := <-done
		running--
		if o.panicked != nil {
			// The others are stopped and waited for, as after an error,
			// before the panic goes on to the caller.
			if panicked == nil {
				panicked = o.panicked
				cancel()
			}
			continue
		}
		rs.finish(o)
		m := o.m
		rs.reshare(nil)
		if !m.paused && m.resumable() {
			rs.reshareIdle() // so that no view keeps the tables of the member that ended
		}
		switch {
		case winner != nil || firstErr != nil || proof || panicked != nil: // ended after the answer
		case o.err != nil:
			firstErr = fmt.Errorf("portfolio member %s: %w", m.Name, o.err)
			cancel()
		case o.res.Status == Solved:
			winner, solution = m, o.res
			cancel()
		case o.res.Status == NoSolution && m.Exhaustive:
			proof = true
			cancel()
		case o.res.Status == NoSolution: // not a proof: this member only ran out of work
			last = GaveUp
		case !o.pause.Paused:
			last = o.res.Status
		}
	}
	if panicked != nil {
		rs.endPaused(Cancelled)
		panic(panicked)
	}
	if firstErr != nil {
		rs.endPaused(Cancelled)
		return Result{}, firstErr
	}
	res := Result{}
	switch {
	case winner != nil:
		res.Status, res.Moves, res.Pushes = Solved, solution.Moves, solution.Pushes
	case proof:
		res.Status = NoSolution
	case errors.Is(parent.Err(), context.DeadlineExceeded):
		res.Status = TimeLimit
	case parent.Err() != nil:
		res.Status = Cancelled
	case starved != Solved:
		res.Status = starved
	default:
		res.Status = last
	}
	ended := res.Status
	if winner != nil || proof {
		ended = Cancelled
	}
	rs.endPaused(ended)
	res.Stats = rs.total()
	res.Stats.Elapsed = time.Since(rs.start)
	if winner != nil {
		res.Stats.Strategy = winner.Name
	}
	return res, nil
}

// pick returns the member still in the rounds and not running that has
// had the least for its weight (the first such in the list), nil when
// none is left.
func (rs *rounds) pick() *entrant {
	rs.grow()
	var best *entrant
	for _, m := range rs.members {
		if m.in() && !m.running && !rs.waiting(m) && (best == nil || m.used/m.weight < best.used/best.weight) {
			best = m
		}
	}
	return best
}

// waiting reports whether member m is late and not yet joined: the
// members have not had m.Late of their own time together (with threads,
// sooner than the run's clock) and one that is not late is still in.
func (rs *rounds) waiting(m *entrant) bool {
	if m.Late == 0 || m.started {
		return false
	}
	return rs.othersShort(m, m.Late)
}

// othersShort reports whether the members other than m have had less
// than d of their own time together while one that is not late is still
// in.
func (rs *rounds) othersShort(m *entrant, d time.Duration) bool {
	rs.mu.Lock() // progress events update live
	defer rs.mu.Unlock()
	var had time.Duration
	others := false
	for _, o := range rs.members {
		if o == m {
			continue
		}
		if o.started {
			had += o.live.Elapsed
		}
		others = others || o.in() && o.Late == 0
	}
	return others && had < d
}

// grow gives each member running on its ShareBefore its Share once the
// others have had its Late, or none that is not late is left: it then
// joins as a late member does, with what it has had so far.
func (rs *rounds) grow() {
	for _, m := range rs.members {
		if m.growAt == 0 || !m.in() || rs.othersShort(m, m.growAt) {
			continue
		}
		m.Share, m.weight, m.growAt, m.grown = m.grownShare, m.grownShare, 0, true
	}
}

// budget returns member m's budget for its next slice, and the deadline
// of a run-once member's, or the limit that leaves it nothing. A run-once
// member gets its share of what is left: share / (the shares of the
// members still in that have not started), of the time times the members
// that may run at once, all of it when no more members than that wait
// (shareOf). The
// resumable members' shares are set together, the same way, when the
// first of them starts; a slice then gets all the run has left, which
// ends the member for good, and ends itself at m.until.
func (rs *rounds) budget(m *entrant) (Budget, time.Time, Status) {
	total := rs.opts.Budget
	now := time.Now()
	left := Budget{Nodes: total.Nodes - rs.spent.Nodes, Iterations: total.Iterations - rs.spent.Iterations}
	if total.Time > 0 {
		if left.Time = rs.deadline.Sub(now); left.Time <= 0 {
			return Budget{}, time.Time{}, TimeLimit
		}
	}
	if total.Nodes > 0 && left.Nodes <= 0 {
		return Budget{}, time.Time{}, NodeLimit
	}
	if total.Iterations > 0 && left.Iterations <= 0 {
		return Budget{}, time.Time{}, IterationLimit
	}
	shares := rs.sharesLeft(left, now)
	if !m.resumable() {
		b := rs.shareOf(m, shares, true)
		if b.Time >= shares.Time {
			b.Time = left.Time // all that is left of Early: all the run has
		}
		if total.Nodes > 0 && rs.k > 1 {
			if b.Nodes = rs.nodeAllowance(m, left.Nodes, b.Nodes, 1); b.Nodes == 0 {
				return Budget{}, time.Time{}, nodesHeld
			}
		}
		var until time.Time
		if total.Time > 0 {
			until = now.Add(b.Time)
		}
		if total.Memory > 0 {
			b.Memory = rs.memory(m)
		}
		return b, until, Solved
	}
	if !rs.wholes {
		rs.setWholes(shares)
	}
	if m.Late > 0 && !m.started || m.grown {
		m.whole, m.grown = rs.shareOf(m, shares, false), false
	}
	b := rs.slice(m, left)
	if total.Nodes > 0 && rs.k > 1 {
		want := b.Nodes - m.stats.Expanded // all that is left, or to the slice's end
		if m.until.Nodes > 0 {
			want = m.until.Nodes - m.stats.Expanded
		}
		need := int64(1)
		if !m.started { // its opening runs whole: a part of its share it cannot pause in
			need = min(want, int64(float64(m.whole.Nodes)*m.Opening)+1)
		}
		n := rs.nodeAllowance(m, left.Nodes, want, need)
		if n == 0 {
			return Budget{}, time.Time{}, nodesHeld
		}
		// The slice pauses at its allowance; it ends the member for good
		// only when the member is alone and the allowance is all that is left.
		b.Nodes = m.stats.Expanded + n
		if !rs.alone(m) {
			m.until.Nodes = b.Nodes
		}
	}
	return b, time.Time{}, Solved
}

// nodesHeld is budget's answer when, with threads, the expansions of the
// node limit the running slices do not hold are too few for member m's
// slice: m waits for one to end.
const nodesHeld Status = -1

// nodeAllowance returns, with threads and a node limit, the expansions
// member m's next slice or run may take, and holds them (entrant.nodes)
// until it ends, so that the slices running side by side never pass the
// limit together. Of what neither the ended slices spent (left) nor the
// running ones hold, m may take an even part over the threads it shares
// it with (those not running, no more than the members that could start
// now), up to want. It returns 0, and m waits for a running slice to end
// and give back what it did not spend, when that part is less than need
// (what m must have at once: a first slice's opening, which it cannot
// pause in) or less than want and minSliceNodes of the limit; with none
// running it gets instead what it wants of all that is free. Without a
// time limit it also waits while it has had more for its weight than a
// running member will have once that one's slice ends.
func (rs *rounds) nodeAllowance(m *entrant, left, want, need int64) int64 {
	free, running, could := left, 0, 1
	ahead := false // of a running member, even once that one has had its allowance
	for _, o := range rs.members {
		switch {
		case o.running:
			free -= o.nodes
			running++
			ahead = ahead || m.used/m.weight > (o.used+float64(o.nodes))/o.weight
		case o != m && o.in() && !rs.waiting(o):
			could++
		}
	}
	if ahead && rs.opts.Budget.Time <= 0 {
		// Its turn comes after that one's, as with one thread: a member
		// whose slices end sooner in wall time (the others in their
		// set-up) does not take the others' part of the expansions.
		return 0
	}
	n := min(free/int64(min(rs.k-running, could)), want)
	switch {
	case running == 0 && n < need:
		n = min(free, want)
	case running > 0 && (n < need || n < want && n < int64(float64(rs.opts.Budget.Nodes)*minSliceNodes)):
		return 0
	}
	if n <= 0 {
		return 0
	}
	m.nodes = n
	return n
}

// minSliceNodes is the least part of the node limit a slice cut short by
// what the running slices hold is worth starting for; a smaller one waits.
const minSliceNodes = 1.0 / 64

// alone reports whether m is the only member still in the rounds.
func (rs *rounds) alone(m *entrant) bool {
	for _, o := range rs.members {
		if o != m && o.in() {
			return false
		}
	}
	return true
}

// part returns member m's part of what is left when it starts, and
// whether it gets all of it, with k members running at once: its share of
// the shares of the members still to start and of the resumable members
// still in, which go on sharing what is left (a run-once member listed
// after them does not take it all), times k. A late member not yet
// started counts only for itself.
func (rs *rounds) part(m *entrant, k int) (part float64, all bool) {
	rest, waiting := 0.0, 0
	for _, o := range rs.members {
		if o != m && o.Late > 0 && !o.started {
			continue
		}
		if o.in() && (!o.started || o.resumable()) {
			rest += o.Share
			waiting++
		}
	}
	return min(float64(k)*m.Share/rest, 1), waiting <= k
}

// shareOf returns member m's share of left, all of a limit where part
// says so and mayAll: of the time, with the threads running side by side
// on the clock (part with rs.k), and of the expansions and iterations,
// which the threads spend from one pool, as one thread would (part with
// 1).
func (rs *rounds) shareOf(m *entrant, left Budget, mayAll bool) Budget {
	total := rs.opts.Budget
	var b Budget
	if total.Time > 0 {
		part, all := rs.part(m, rs.k)
		b.Time = time.Duration(portion(int64(left.Time), part, all && mayAll))
	}
	part, all := rs.part(m, 1)
	if total.Nodes > 0 {
		b.Nodes = portion(left.Nodes, part, all && mayAll)
	}
	if total.Iterations > 0 {
		b.Iterations = portion(left.Iterations, part, all && mayAll)
	}
	return b
}

// setWholes sets the share of every resumable member still in, of left:
// each its part as a run-once member starting now would get it. A late
// member's is set when it joins (budget).
func (rs *rounds) setWholes(left Budget) {
	rs.wholes = true
	for _, m := range rs.members {
		if !m.resumable() || !m.in() || m.Late > 0 {
			continue
		}
		m.whole = rs.shareOf(m, left, false)
	}
}

// slice sets resumable member m's next slice (m.until) and returns its
// budget: all the run has left, counted from m's start. The slice is as
// long as all m has had so far, at least firstSlice of its share, its
// Opening besides on the first; it has no end when m is the only member
// left in the rounds. The memory is cut into parts (parts), so that one
// that ended hands its part to the others.
func (rs *rounds) slice(m *entrant, left Budget) Budget {
	part := firstSlice
	if !m.started {
		part += m.Opening
	}
	alone := rs.alone(m)
	total := rs.opts.Budget
	var sb Budget
	m.until = Budget{}
	if total.Time > 0 {
		sb.Time = left.Time
		own := time.Duration(m.used * float64(time.Second))
		if !alone {
			m.until.Time = sliceEnd(own, time.Duration(float64(m.whole.Time)*part), m.whole.Time)
		}
		if mark, ok := rs.earlyMark(); ok {
			// It pauses where the shares grow at the latest, to take its own.
			if at := own + max(time.Until(mark), 0); m.until.Time == 0 || at < m.until.Time {
				m.until.Time = at
			}
		}
	}
	if total.Nodes > 0 {
		sb.Nodes = m.stats.Expanded + left.Nodes
		if total.Time <= 0 && !alone {
			m.until.Nodes = sliceEnd(m.stats.Expanded, max(int64(float64(m.whole.Nodes)*part), 1), m.whole.Nodes)
		}
	}
	if total.Iterations > 0 {
		sb.Iterations = m.stats.Iterations + left.Iterations
	}
	if total.Memory > 0 {
		sb.Memory = rs.memory(m)
	}
	return sb
}

// sliceEnd returns where a member's slice ends that begins when it has
// had had (own time, or expansions): after as much again, at least first,
// but not past whole, its share, while it has had less, so that at the
// limit each member has had about its share rather than what a doubled
// last slice happened to give it (docs/fess.md, "The rounds").
func sliceEnd[T time.Duration | int64](had, first, whole T) T {
	end := had + max(had, first)
	if had < whole {
		end = min(end, max(whole, had+first))
	}
	return end
}

// sharesLeft returns left, what the run has left at now, with the time
// the members' shares are cut from: under a limit longer than
// Portfolio.Early, until the run has gone on for Early, what is left of
// Early, so that the run begins as one limited to Early would; from then
// on all that is left, and the shares set so far grow in proportion to
// the limit.
func (rs *rounds) sharesLeft(left Budget, now time.Time) Budget {
	mark, ok := rs.earlyMark()
	if !ok {
		return left
	}
	if now.Before(mark) {
		left.Time = mark.Sub(now)
		return left
	}
	rs.extended = true
	grow := float64(rs.opts.Budget.Time) / float64(rs.early)
	for _, m := range rs.members {
		if m.resumable() {
			m.whole.Time = time.Duration(float64(m.whole.Time) * grow)
		}
	}
	return left
}

// earlyMark returns when the members' shares grow from Portfolio.Early to
// the limit, while they have yet to (sharesLeft).
func (rs *rounds) earlyMark() (time.Time, bool) {
	if rs.early <= 0 || rs.opts.Budget.Time <= rs.early || rs.extended {
		return time.Time{}, false
	}
	return rs.start.Add(rs.early), true
}

// memory returns member m's part of the memory limit for its next slice
// or run. With one thread the limit is one pool: m may have what the
// members paused between slices do not hold, and as only m runs, they
// never hold more together. With more, the limit is cut into parts.
func (rs *rounds) memory(m *entrant) int64 {
	total := rs.opts.Budget.Memory
	if rs.k > 1 {
		return max(total/int64(rs.parts()), 1)
	}
	var held int64
	for _, o := range rs.members {
		if o != m && o.paused {
			held += o.live.Bytes
		}
	}
	// held counts tables, which a budget's Tables allow of its Memory.
	return max(total-held*headroomPart/(headroomPart-1), 1)
}

// parts returns how many like parts the memory limit is cut into with
// threads: one for each resumable member still in, which holds its tables
// from its first slice to its end, and for up to k run-once members
// running beside them. The members still in only grow fewer, so a part
// handed out earlier is never larger than one now.
func (rs *rounds) parts() int {
	resumable, runOnce := 0, 0
	for _, o := range rs.members {
		switch {
		case !o.in():
		case o.resumable():
			resumable++
		default:
			runOnce++
		}
	}
	return max(resumable+min(runOnce, rs.k), 1)
}

// share hands resumable member m, when it takes knowledge, the other
// resumable members still in that are not running and are not starting
// (not nil): those whose tables stay still while m may read them.
func (rs *rounds) share(m, starting *entrant) {
	s, ok := m.Resumable.(Sharer)
	if !ok {
		return
	}
	var others []Resumable
	for _, o := range rs.members {
		if o != m && o != starting && o.resumable() && o.in() && !o.running {
			others = append(others, o.Resumable)
		}
	}
	s.Share(others)
}

// reshare hands the members running that take knowledge what they may read
// now: before member starting (not nil) starts, all but it, so that none
// reads its tables while it searches; after a member paused, it too. With
// one thread none runs then. Share waits for the member to be between two
// steps: a step is short, and the first slice, whose set-up is long, does
// not share (entrant.sharing).
func (rs *rounds) reshare(starting *entrant) {
	for _, r := range rs.members {
		if r.running && r.sharing {
			rs.share(r, starting)
		}
	}
}

// reshareIdle hands the members between slices that take knowledge what
// they may read now: once a member has ended, what it held goes to the
// others (its memory share), and a paused member's view must not keep it.
func (rs *rounds) reshareIdle() {
	for _, r := range rs.members {
		if r.started && !r.running && r.in() {
			rs.share(r, nil)
		}
	}
}

// run runs member m's next slice under budget b (and the deadline until,
// when not zero) and sends how it ended to done: on the caller's
// goroutine with one thread (so that a caller locked to its thread, as
// soko bench is to measure CPU time, runs the members there), else on a
// goroutine of its own.
func (rs *rounds) run(ctx context.Context, m *entrant, b Budget, until time.Time, l *level.Level, done chan<- outcome) {
	if until.IsZero() && b.Time > 0 {
		until = rs.deadline
	}
	mctx, cancel := ctx, context.CancelFunc(func() {})
	if !until.IsZero() {
		mctx, cancel = context.WithDeadline(ctx, until)
	}
	opts := Options{Budget: b, Seed: rs.opts.Seed + uint64(m.index), Params: m.Params, Model: rs.opts.Model, Threads: 1,
		Trace: rs.opts.Trace.Strategy(m.Name)}
	if rs.opts.Progress != nil {
		opts.Progress = func(ev Progress) { rs.note(m, ev) }
	}
	rs.mu.Lock()
	m.running, m.started = true, true
	rs.mu.Unlock()
	// The slice is read here: past Early, sharesLeft grows every member's
	// whole, the running ones' too, while their slices run.
	sl := Slice{Whole: m.whole, Until: m.until}
	slice := func() {
		defer cancel()
		o := outcome{m: m}
		if m.resumable() {
			s := &sliceSolver{m: m.Resumable, s: sl}
			o.res, o.err = Run(mctx, s, l, opts)
			o.pause = s.pause
		} else {
			o.res, o.err = Run(mctx, m.solver, l, opts)
			TraceMember(opts.Trace, o.res, b, o.err)
		}
		if o.err != nil || o.res.Status == Solved {
			o.pause = Pause{}
		}
		done <- o
	}
	if rs.k > 1 {
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- outcome{m: m, panicked: fmt.Sprintf("portfolio member %s: %v\n\n%s", m.Name, p, debug.Stack())}
				}
			}()
			slice()
		}()
	} else {
		slice()
	}
}

// sliceSolver is one slice of a resumable member as a Solver, so that Run
// verifies its solution as it verifies every other.
type sliceSolver struct {
	m     Resumable
	s     Slice
	pause Pause
}

// Solve implements Solver.
func (x *sliceSolver) Solve(ctx context.Context, l *level.Level, opts Options) (Result, error) {
	res, p, err := x.m.Slice(ctx, l, opts, x.s)
	x.pause = p
	return res, err
}

// finish takes in how a slice ended: the budget it spent, the member's
// statistics, the most the members held at once, and the member's weight
// for its next slice, or its end.
func (rs *rounds) finish(o outcome) {
	m := o.m
	rs.mu.Lock()
	rs.spent.Nodes += o.res.Stats.Expanded - m.stats.Expanded
	rs.spent.Iterations += o.res.Stats.Iterations - m.stats.Iterations
	m.stats, m.live = o.res.Stats, detached(o.res.Stats)
	m.running, m.nodes = false, 0
	rs.notePeak(m)
	m.paused = m.resumable() && o.pause.Paused
	if m.paused {
		rs.reweigh(m, o.pause)
	} else {
		m.weight = 0 // out of the rounds
	}
	if now := time.Now(); rs.opts.Progress != nil && m.paused && now.Sub(rs.noted) >= progressEvery {
		rs.noted = now
		ev := Progress{Stats: rs.sum()}
		ev.Elapsed, ev.Strategy = now.Sub(rs.start), m.Name
		rs.opts.Progress(ev)
	}
	rs.mu.Unlock()
	if m.resumable() && o.err == nil {
		rs.traceSlice(m, o.res, o.pause)
	}
}

// reweigh counts the own time (or without a time limit the expansions) of
// member m, paused, and sets its weight: its share back when it improved,
// halved after stallSlices slices in a row in which it stalled.
func (rs *rounds) reweigh(m *entrant, p Pause) {
	if rs.opts.Budget.Time > 0 {
		m.used = m.stats.Elapsed.Seconds()
	} else {
		m.used = float64(m.stats.Expanded)
	}
	switch {
	case p.Improved:
		m.weight, m.stalls = m.Share, 0
	case p.Stalled:
		if m.stalls++; m.stalls >= stallSlices {
			m.weight = max(m.weight/2, m.Share*stallFloor, rs.threadsWorth(m))
		}
	default:
		m.stalls = 0
	}
}

// threadsWorth returns, with threads, the weight a stalled member m keeps
// when its share is at least a thread's worth (a k-th of the shares of the
// members still in): that thread's worth. Halved below it, m would hand
// its turns to members that have their own threads' worth, where with one
// thread the members that share its thread would get them: on a small
// board bigreedy keeps its thread as it keeps most of one thread alone.
// Otherwise 0.
func (rs *rounds) threadsWorth(m *entrant) float64 {
	if rs.k <= 1 {
		return 0
	}
	sum := 0.0
	for _, o := range rs.members {
		if o.in() {
			sum += o.Share
		}
	}
	worth := sum / float64(rs.k)
	if m.Share < worth {
		return 0
	}
	return worth
}

// endPaused ends the members still paused with status st, so that their
// traces have an end record.
func (rs *rounds) endPaused(st Status) {
	for _, m := range rs.members {
		if m.paused {
			m.stats = m.Resumable.End(st)
			m.live, m.paused = m.stats, false
		}
	}
}

// note forwards member m's progress event with the run's sums. It runs on
// m's goroutine; the other members' notes read m.live.
func (rs *rounds) note(m *entrant, ev Progress) {
	live := detached(ev.Stats)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	m.live = live
	out := Progress{Stats: rs.sum(), Board: ev.Board, Detail: ev.Detail}
	rs.noted = time.Now()
	out.Elapsed = rs.noted.Sub(rs.start)
	out.Strategy = m.Name
	rs.opts.Progress(out)
}

// detached returns s with a copy of its counts: a member goes on writing
// the map it reports (bigreedy does) while the other members' goroutines
// sum m.live.
func detached(s Stats) Stats {
	s.Counts = maps.Clone(s.Counts)
	return s
}

// total returns the members' statistics summed.
func (rs *rounds) total() Stats {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.sum()
}

// sum adds up the statistics of the members that ran, as the Portfolio's
// documentation says; rs.mu is held.
func (rs *rounds) sum() Stats {
	var out Stats
	for _, m := range rs.members {
		if !m.started {
			continue
		}
		s := m.live
		out.Expanded += s.Expanded
		out.Generated += s.Generated
		out.Stored += s.Stored
		out.Iterations += s.Iterations
		out.TreeSize += s.TreeSize
		out.UniqueStates += s.UniqueStates
		out.Bound = max(out.Bound, s.Bound)
		if out.Counts == nil {
			out.Counts = map[string]int64{}
		}
		out.Counts[m.Name+".expanded"] = s.Expanded
		if rs.opts.Budget.Time > 0 {
			out.Counts[m.Name+".own_ms"] = s.Elapsed.Milliseconds()
		}
		for key, n := range s.Counts {
			out.Counts[m.Name+"."+key] = n
		}
	}
	rs.notePeak(nil)
	out.Bytes = rs.peak
	return out
}

// notePeak takes the bytes the members hold now into the most they held
// at once: those running, those paused between slices, and just, when not
// nil, the member whose slice just ended, before it lets its tables go. It
// runs after every slice: the sums alone run only at progress events and
// at the end, when the largest members may have ended; rs.mu is held.
func (rs *rounds) notePeak(just *entrant) {
	var held int64
	for _, m := range rs.members {
		if m == just || m.running || m.paused {
			held += m.live.Bytes
		}
	}
	rs.peak = max(rs.peak, held)
}

// sliceRecord is the trace record of a resumable member's slice: how it
// ended ("paused" when it did not), where it was to end (the member's own
// seconds and expansions; 0: at the end of the budget), its expansions
// and own time so far, its weight for the next, and whether it improved
// or stalled.
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

// traceSlice writes member m's slice record, after its weight is set.
func (rs *rounds) traceSlice(m *entrant, res Result, p Pause) {
	t := rs.opts.Trace.Strategy(m.Name)
	if t == nil {
		return
	}
	rec := sliceRecord{Status: res.Status.String(), Until: TraceSeconds(m.until.Time), Nodes: m.until.Nodes,
		Expanded: res.Stats.Expanded, Own: TraceSeconds(res.Stats.Elapsed)}
	if p.Paused {
		rec.Status, rec.Improved, rec.Stalled, rec.Weight = "paused", p.Improved, p.Stalled, m.weight
	}
	t.Write("slice", rec)
}
