package search

import (
	"context"
	"time"

	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// BiGreedyMember is bigreedy as a member the rounds run in slices
// (solver.Resumable): its search, with both open lists and the shared
// table, is kept between slices and goes on where it paused, so a run in
// slices searches exactly as one in one go (TestBiGreedySlicesAsOneRun).
// A slice improved when either search expanded a state of a lower bound
// than any before it, and stalled otherwise. It holds one search of one
// level: make one per run.
type BiGreedyMember struct {
	// Tables, when set, gives the forward search its deadlock table in
	// place of one of its own: a portfolio's table of the level, which
	// its members share.
	Tables TableSource
	s      *biSearch
	before time.Duration // its own time in the slices before the running one
	trace  *solver.Trace // its slices' trace, for End's record
}

// Slice implements solver.Resumable. The first slice sets the search up
// under opts (the run's budget left); the share, sl.Whole, sizes nothing:
// the search has no schedule of its own.
func (m *BiGreedyMember) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	guard := solver.NewGuard(ctx, opts)
	m.trace = opts.Trace
	if m.s == nil {
		s, res, ok, err := newBiSearch(ctx, l, opts)
		if !ok {
			return res, solver.Pause{}, err
		}
		s.g.tables = m.Tables
		m.s, m.before = s, 0
	}
	s := m.s
	s.g.watch(guard)
	own := func() bool { return sl.Until.Time > 0 && m.before+guard.Elapsed() >= sl.Until.Time }
	res, paused, err := s.run(sl.Until, own)
	if err != nil || !paused {
		m.s = nil
		res.Stats.Elapsed += m.before
		return res, solver.Pause{}, err
	}
	m.before += guard.Elapsed()
	improved := s.improved()
	st := solver.TimeLimit
	if sl.Until.Nodes > 0 && s.g.stats.Expanded >= sl.Until.Nodes {
		st = solver.NodeLimit
	}
	s.count()
	stats := s.g.stats
	stats.Bytes = s.g.bytes() + s.bytes()
	stats.Elapsed = m.before
	return solver.Result{Status: st, Stats: stats}, solver.Pause{Paused: true, Improved: improved, Stalled: !improved}, nil
}

// End implements solver.Resumable: it ends the paused search with st.
func (m *BiGreedyMember) End(st solver.Status) solver.Stats {
	if m.s == nil {
		return solver.Stats{}
	}
	m.s.count()
	stats := m.s.g.stop(st).Stats
	stats.Elapsed = m.before
	m.s = nil
	solver.TraceMember(m.trace, solver.Result{Status: st, Stats: stats}, solver.Budget{}, nil) // as a run-once member's end
	return stats
}

// Tail reports whether the backward search stored the position packed as
// key (Position.Pack's key, on a board of the same level), and then the
// pushes that take it to a solved position: another member's search that
// reaches the position has its solution. Call it only while the member
// is paused (solver.Sharer), when its tables stay still.
func (m *BiGreedyMember) Tail(key []byte) ([]sokoban.Push, bool) {
	s := m.s
	if s == nil || len(key) != s.g.board.KeySize() {
		return nil, false
	}
	id, ok := s.g.store.Find(key, s.g.board.KeyHash(key))
	if !ok || s.side[id] != biBackward {
		return nil, false
	}
	return s.tail(nil, id), true
}
