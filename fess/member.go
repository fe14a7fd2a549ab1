package fess

import (
	"context"
	"sync"
	"time"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// member is a strategy whose search runs on an engine (FESS, back) as a
// member of the rounds (solver.Resumable): its engine and search, kept
// between slices, and how far its slices have taken it.
// Each slice goes on from where the last paused, so a strategy run in
// slices searches exactly as in one go (TestResumeIsSeamless).
type member struct {
	s       *strategy
	newLoop func(*engine) loop // the strategy's search on its engine
	tables  *levelTables       // the level's tables the portfolio's engines share (nil: its own)
	// e is its engine and run its search there, nil before its first
	// slice and once it ended. A slice ends only once the search has
	// begun (loop.begin), so set-up and opening run whole in the first.
	e   *engine
	run loop
	// until is the end of the slice running, in own time and expansions
	// (zero: none); before is the engine's own time in the slices before.
	until  solver.Budget
	before time.Duration
	paused bool
	view   knowledge // what the other members let it meet (Share)
	// mu is held while the search may read view: over each step, and over
	// the first slice's set-up; Share takes it, so that with threads the
	// rounds change view only between steps (solver.Sharer).
	mu sync.Mutex
}

// Slice implements solver.Resumable.
func (m *member) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	guard := solver.NewGuard(ctx, opts)
	m.mu.Lock()
	m.until = sl.Until
	if m.e != nil {
		m.e.guard, m.paused = guard, false
		m.e.budget.Time = sl.Whole.Time // its share grows with the limit past the rounds' start (solver.Portfolio.Early)
		m.run.watch()
		before := m.run.mark()
		m.mu.Unlock()
		return m.loop(before)
	}
	res, done, err := m.begin(l, guard, opts, sl)
	m.mu.Unlock()
	if done {
		return res, solver.Pause{}, err
	}
	return m.loop(-1)
}

// begin sets the member's search up on its first slice and runs it up to
// its loop; done says it ended there, with res; m.mu is held.
func (m *member) begin(l *level.Level, guard *solver.Guard, opts solver.Options, sl solver.Slice) (res solver.Result, done bool, err error) {
	whole := opts
	whole.Budget = sl.Whole
	whole.Budget.Memory = opts.Budget.Memory
	e, st, err := newEngine(l, guard, whole, nil, m.tables)
	if err != nil {
		return solver.Result{}, true, err
	}
	if e == nil {
		res := solver.Result{Status: st}
		guard.Finish(&res.Stats)
		return res, true, nil
	}
	e.use(m.s)
	e.clock, m.e, m.run = m.own, e, m.newLoop(e)
	m.run.take(m.view)
	if res, done, err := m.run.begin(); done {
		m.e, m.run, m.view = nil, nil, knowledge{}
		return res, true, err
	}
	return solver.Result{}, false, nil
}

// loop runs the search's loop until the slice's end, where it pauses, or
// the search's; before is where it stood before the slice (-1: nowhere
// yet).
func (m *member) loop(before int32) (solver.Result, solver.Pause, error) {
	for {
		if res, p, done, err := m.turn(before); done {
			return res, p, err
		}
	}
}

// turn is one turn of loop, under m.mu: the end of the search at a
// meeting Share found (catchup.go), the slice's end, or one step.
func (m *member) turn(before int32) (solver.Result, solver.Pause, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mt := &m.e.meets; mt.found {
		m.e, m.run, m.view = nil, nil, knowledge{}
		return mt.res, solver.Pause{}, true, mt.err
	}
	if st, over := m.over(); over {
		res := m.pause(st)
		improved, stalled := m.run.progress(before)
		return res, solver.Pause{Paused: true, Improved: improved, Stalled: stalled}, true, nil
	}
	if res, done, err := m.run.step(); done {
		m.e, m.run, m.view = nil, nil, knowledge{} // its memory goes to the others, and theirs is not kept
		return res, solver.Pause{}, true, err
	}
	return solver.Result{}, solver.Pause{}, false, nil
}

// over reports whether the slice has reached its end, with the limit it
// reached.
func (m *member) over() (solver.Status, bool) {
	switch {
	case m.until.Nodes > 0 && m.e.stats.Expanded >= m.until.Nodes:
		return solver.NodeLimit, true
	case m.until.Time > 0 && m.own() >= m.until.Time:
		return solver.TimeLimit, true
	}
	return solver.Solved, false
}

// pause ends a slice with status st: the engine keeps its tree and queue
// for the next.
func (m *member) pause(st solver.Status) solver.Result {
	m.before += m.e.guard.Elapsed()
	m.paused = true
	m.e.finishStats()
	return solver.Result{Status: st, Stats: m.e.stats}
}

// own returns the engine's own time: its slices' so far, and the running
// slice's guard's.
func (m *member) own() time.Duration {
	if m.paused {
		return m.before
	}
	return m.before + m.e.guard.Elapsed()
}

// End implements solver.Resumable: it ends the paused search with st.
func (m *member) End(st solver.Status) solver.Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.e == nil {
		return solver.Stats{}
	}
	stats := m.e.stop(st).Stats
	m.e, m.run, m.paused, m.view = nil, nil, false, knowledge{}
	return stats
}

// Share implements solver.Sharer: each other member whose search has
// begun offers what it knows (loop.offer), and the member's engine meets
// it from its next step on: the back strategy's search the forward
// strategies' trees, a forward strategy's search the back strategy's
// store and bigreedy's backward search (tailer).
func (m *member) Share(others []solver.Resumable) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.view = knowledge{}
	for _, o := range others {
		if om, ok := o.(*member); ok && om.run != nil {
			om.run.offer(&m.view)
		} else if t, ok := o.(tailer); ok {
			m.view.tails = append(m.view.tails, t)
		}
	}
	if m.run != nil {
		m.run.take(m.view)
	}
}

// knowledge is what the other members of a run of the portfolio let a
// search meet, as of its slice (member.Share): the forward engines' trees,
// which the back strategy's search meets besides its own, and the back
// strategy's search and bigreedy's, whose stores a forward strategy's
// search meets. It is empty in a search run alone.
type knowledge struct {
	trees []*engine
	back  *backward
	tails []tailer
}

// tailer is a member of another package whose search holds positions from
// which it knows the way to the solved position (bigreedy's backward
// search, search.BiGreedyMember): a forward search that reaches one of
// them has its solution.
type tailer interface {
	Tail(key []byte) ([]sokoban.Push, bool)
}

// offer adds the forward search's tree to k.
func (e *engine) offer(k *knowledge) { k.trees = append(k.trees, e) }
