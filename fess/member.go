package fess

import (
	"context"
	"time"

	"soko/level"
	"soko/solver"
)

// member is a FESS strategy as a member of the rounds (solver.Resumable):
// its engine, kept between slices, and how far its slices have taken it.
// Each slice goes on from where the last paused, so a strategy run in
// slices searches exactly as in one go (TestResumeIsSeamless).
type member struct {
	s *strategy
	e *engine // nil before its first slice and once it ended
	// until is the end of the slice running, in own time and expansions
	// (zero: none); before is the engine's own time in the slices before.
	until  solver.Budget
	before time.Duration
	// begun is set once the forward search has its root: a slice ends
	// only after that, so set-up and opening run whole in the first.
	begun, paused bool
	view          knowledge // what the other members let it meet (Share)
}

// Slice implements solver.Resumable.
func (m *member) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	guard := solver.NewGuard(ctx, opts)
	m.until = sl.Until
	if m.e != nil {
		best := m.e.queue.best
		m.e.guard, m.paused = guard, false
		m.e.watch()
		return m.loop(best)
	}
	whole := opts
	whole.Budget = sl.Whole
	whole.Budget.Memory = opts.Budget.Memory
	e, st, err := newEngine(l, guard, whole, nil)
	if err != nil {
		return solver.Result{}, solver.Pause{}, err
	}
	if e == nil {
		res := solver.Result{Status: st}
		guard.Finish(&res.Stats)
		return res, solver.Pause{}, nil
	}
	e.use(m.s)
	e.clock, e.shared, m.e = m.own, m.view, e
	res, done, err := e.begin()
	if done {
		m.e = nil
		return res, solver.Pause{}, err
	}
	m.begun = true
	return m.loop(-1)
}

// loop runs the engine's loop until the slice's end, where it pauses, or
// the search's; best is the best cell before the slice (-1: none yet).
func (m *member) loop(best int32) (solver.Result, solver.Pause, error) {
	e := m.e
	for {
		if st, over := m.over(); over {
			res := m.pause(st)
			improved := best < 0 || e.queue.best != best
			return res, solver.Pause{Paused: true, Improved: improved, Stalled: !improved && e.stalled(best)}, nil
		}
		if res, done, err := e.step(); done {
			m.e = nil // its memory goes to the others
			return res, solver.Pause{}, err
		}
	}
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
	if m.e == nil {
		return solver.Stats{}
	}
	stats := m.e.stop(st).Stats
	m.e, m.paused = nil, false
	return stats
}

// Share implements solver.Sharer: the back strategy meets the trees of
// the other strategies whose forward search has begun; the others meet
// the back strategy's store.
func (m *member) Share(others []solver.Resumable) {
	m.view = knowledge{}
	for _, o := range others {
		om, ok := o.(*member)
		if !ok || om.e == nil {
			continue
		}
		switch {
		case m.s.back && om.begun && !om.s.back:
			m.view.trees = append(m.view.trees, om.e)
		case !m.s.back && om.s.back && m.view.back == nil:
			m.view.back = om.e.back
		}
	}
	if m.e != nil {
		m.e.shared = m.view
	}
}

// knowledge is what the other members of a run of the portfolio let a
// search meet, as of its slice (member.Share): the forward engines' trees,
// which the back strategy's search meets besides its own, and the back
// strategy's search, whose store a forward strategy's search meets. It is
// empty in a search run alone.
type knowledge struct {
	trees []*engine
	back  *backward
}

// stalled reports whether the best cell is the one it was (before) and
// has no node left waiting.
func (e *engine) stalled(before int32) bool {
	if e.strat.back {
		return false // its progress is not in cells
	}
	return e.queue.best == before && len(e.queue.cells[before].wait) == 0
}
