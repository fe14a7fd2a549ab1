package solver

import (
	"context"
	"time"
)

// Guard enforces a Budget inside a search loop and sends progress events.
// Call Tick once per expanded node or iteration; it looks at the clock and the context
// only every few calls, so it costs a few nanoseconds. Where calls come
// slowly (big boards, where one expansion can take milliseconds), or many
// states were generated since the last look, it looks at once.
type Guard struct {
	ctx      context.Context
	budget   Budget
	progress func(Progress)
	start    time.Time
	deadline time.Time
	nextNote time.Time
	calls    int
	every    int       // Ticks between looks at the clock, 1 to checkEvery (see Check)
	checked  time.Time // the last look
	seen     int64     // Stats.Generated at the last look
	best     func() []string
	describe func() string // see Describe
}

// Best registers how to draw the most promising position found so far; the
// guard calls it when it sends a progress event, on the solver's goroutine.
func (g *Guard) Best(draw func() []string) { g.best = draw }

// progressEvery is the interval between progress events.
const progressEvery = 100 * time.Millisecond

// checkEvery is how many Ticks pass between looks at the clock while Ticks
// are quick. The guard starts by looking at every Tick and doubles the
// interval after each look that comes less than slowTicks after the one
// before, up to checkEvery; a look that comes later sets it back to every
// Tick. It also looks when checkGenerated states were generated since the
// last look: one expansion of a state with hundreds of boxes does that much
// work at once.
const (
	checkEvery     = 16
	slowTicks      = 2 * time.Millisecond
	checkGenerated = 256
)

// NewGuard starts the clock for a search under opts.
func NewGuard(ctx context.Context, opts Options) *Guard {
	g := &Guard{ctx: ctx, budget: opts.Budget, progress: opts.Progress, start: time.Now(), every: 1}
	g.checked = g.start
	if opts.Budget.Time > 0 {
		g.deadline = g.start.Add(opts.Budget.Time)
	}
	g.nextNote = g.start.Add(progressEvery)
	return g
}

// Elapsed returns the time since the guard started.
func (g *Guard) Elapsed() time.Duration { return time.Since(g.start) }

// Tick checks the budget against the search's counters and returns a
// stopping status, or Solved (the zero Status) meaning "go on". stats.Bytes
// must hold the memory the search's tables use now.
func (g *Guard) Tick(stats *Stats) (Status, bool) {
	if g.budget.Nodes > 0 && stats.Expanded >= g.budget.Nodes {
		return NodeLimit, true
	}
	if g.budget.Iterations > 0 && stats.Iterations >= g.budget.Iterations {
		return IterationLimit, true
	}
	if g.budget.Memory > 0 && stats.Bytes > g.budget.Tables() {
		return MemoryLimit, true
	}
	g.calls++
	if g.calls < g.every && stats.Generated-g.seen < checkGenerated {
		return Solved, false
	}
	g.calls = 0
	return g.Check(stats)
}

// Check looks at the clock and the context now.
func (g *Guard) Check(stats *Stats) (Status, bool) {
	select {
	case <-g.ctx.Done():
		if g.ctx.Err() == context.DeadlineExceeded {
			return TimeLimit, true
		}
		return Cancelled, true
	default:
	}
	now := time.Now()
	g.every = min(2*g.every, checkEvery)
	if now.Sub(g.checked) > slowTicks {
		g.every = 1
	}
	g.checked, g.seen = now, stats.Generated
	if !g.deadline.IsZero() && now.After(g.deadline) {
		return TimeLimit, true
	}
	if g.progress != nil && now.After(g.nextNote) {
		g.nextNote = now.Add(progressEvery)
		ev := Progress{Stats: *stats}
		ev.Elapsed = now.Sub(g.start)
		if g.best != nil {
			ev.Board = g.best()
		}
		ev.Detail = g.detail()
		g.progress(ev)
	}
	return Solved, false
}

// Finish stamps the elapsed time into stats.
func (g *Guard) Finish(stats *Stats) { stats.Elapsed = time.Since(g.start) }
