package fess

import (
	"context"
	"sync"
	"time"

	"soko/deadlock"
	"soko/sokoban"
)

// levelTables are the tables of one level that every engine of a
// portfolio run reads and none writes: the packing plan, the deadlock
// table and the hotspot table. The first engine to need one builds it
// (on its own set-up time) and the others take it as it is, where each
// built its own before: on a board of hundreds of squares the plan alone
// takes seconds, which every FESS strategy of the portfolio paid again
// (docs/fess.md, "The rounds"). A build cut short by the builder's budget is
// not kept, so the next engine builds it again on its own budget. Engines
// number a level's squares alike (sokoban.NewBoard), so the tables fit
// every engine's board. Safe for engines that set up at once (threads).
type levelTables struct {
	// time is the level's time limit (0: none): the deadlock table's
	// set-up time goes by it (deadlock.LimitsWithin), not by the share of
	// the engine that happens to build it.
	time  time.Duration
	mu    sync.Mutex
	plan  built[*plan]
	table built[*deadlock.Table]
	hot   built[*hotspots]
}

// built is one of the shared tables, once built (a table may be nil when
// the board is too big for it, and still built).
type built[T any] struct {
	v  T
	ok bool
}

// shared returns the table of slot, built by build if no engine built it
// yet; lt nil builds it for this engine alone. A failed build is not kept.
func shared[T any](lt *levelTables, slot func(*levelTables) *built[T], build func() (T, error)) (T, error) {
	if lt == nil {
		return build()
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	t := slot(lt)
	if !t.ok {
		v, err := build()
		if err != nil {
			return v, err
		}
		t.v, t.ok = v, true
	}
	return t.v, nil
}

// planOf returns b's packing plan, built under ctx if no engine built it
// yet.
func (lt *levelTables) planOf(ctx context.Context, b *sokoban.Board) (*plan, error) {
	return shared(lt, func(lt *levelTables) *built[*plan] { return &lt.plan },
		func() (*plan, error) { return newPlan(ctx, b, newMacroGen(b, nil)) })
}

// tableTime is the time the deadlock table's limits go by for an engine
// whose own budget has time d.
func (lt *levelTables) tableTime(d time.Duration) time.Duration {
	if lt == nil || lt.time <= 0 {
		return d
	}
	return lt.time
}

// tableOf returns b's deadlock table under limits (nil when not even the
// single boxes fit), built under ctx if no engine built it yet.
func (lt *levelTables) tableOf(ctx context.Context, b *sokoban.Board, limits deadlock.TableLimits) (*deadlock.Table, error) {
	return shared(lt, func(lt *levelTables) *built[*deadlock.Table] { return &lt.table },
		func() (*deadlock.Table, error) { return deadlock.NewTable(ctx, b, limits) })
}

// hotspotsOf returns b's hotspot table with scratch space of the engine's
// own (nil when the board is too big for one), built under ctx if no
// engine built it yet.
func (lt *levelTables) hotspotsOf(ctx context.Context, b *sokoban.Board) (*hotspots, error) {
	h, err := shared(lt, func(lt *levelTables) *built[*hotspots] { return &lt.hot },
		func() (*hotspots, error) { return newHotspots(ctx, b) })
	if err != nil || lt == nil {
		return h, err
	}
	return h.withScratch(), nil
}
