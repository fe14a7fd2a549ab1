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
	plan  *plan
	table *deadlock.Table
	hot   *hotspots
	// built says which were built (a table or hotspot table may be nil:
	// the board is too big for it).
	built struct{ plan, table, hot bool }
}

// planOf returns b's packing plan, built under ctx if no engine built it
// yet; lt nil builds it for this engine alone.
func (lt *levelTables) planOf(ctx context.Context, b *sokoban.Board) (*plan, error) {
	if lt == nil {
		return newPlan(ctx, b, newMacroGen(b, nil))
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if !lt.built.plan {
		pl, err := newPlan(ctx, b, newMacroGen(b, nil))
		if err != nil {
			return nil, err
		}
		lt.plan, lt.built.plan = pl, true
	}
	return lt.plan, nil
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
	if lt == nil {
		return deadlock.NewTable(ctx, b, limits)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if !lt.built.table {
		t, err := deadlock.NewTable(ctx, b, limits)
		if err != nil {
			return nil, err
		}
		lt.table, lt.built.table = t, true
	}
	return lt.table, nil
}

// hotspotsOf returns b's hotspot table with scratch space of the engine's
// own (nil when the board is too big for one), built under ctx if no
// engine built it yet.
func (lt *levelTables) hotspotsOf(ctx context.Context, b *sokoban.Board) (*hotspots, error) {
	if lt == nil {
		return newHotspots(ctx, b)
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if !lt.built.hot {
		h, err := newHotspots(ctx, b)
		if err != nil {
			return nil, err
		}
		lt.hot, lt.built.hot = h, true
	}
	return lt.hot.withScratch(), nil
}
