package solver_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"soko/level"
	"soko/solver"
)

// hog is a run-once member that holds all its memory budget allows for a
// while, then gives up.
type hog struct {
	done *atomic.Bool
	got  *atomic.Int64
}

func (h hog) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	h.got.Store(opts.Budget.Memory)
	select {
	case <-time.After(200 * time.Millisecond):
	case <-ctx.Done():
	}
	h.done.Store(true)
	return solver.Result{Status: solver.GaveUp, Stats: solver.Stats{Expanded: 1, Bytes: opts.Budget.Tables()}}, nil
}

// holder is a resumable member that holds the most its slice's memory
// allows, less a little, and pauses after each expansion until the hog is
// done; then it gives up.
type holder struct {
	done     *atomic.Bool
	expanded int64
	own      time.Duration
	budget   atomic.Int64
}

func (h *holder) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	g := solver.NewGuard(ctx, opts)
	h.budget.Store(opts.Budget.Memory)
	h.expanded++
	st := solver.Stats{Expanded: h.expanded, Bytes: opts.Budget.Tables(), Elapsed: h.own + g.Elapsed()}
	h.own = st.Elapsed
	if h.done.Load() {
		return solver.Result{Status: solver.GaveUp, Stats: st}, solver.Pause{}, nil
	}
	if status, stop := g.Tick(&st); stop {
		return solver.Result{Status: status, Stats: st}, solver.Pause{}, nil
	}
	time.Sleep(time.Millisecond)
	return solver.Result{Status: solver.TimeLimit, Stats: st}, solver.Pause{Paused: true, Improved: true}, nil
}

func (h *holder) End(st solver.Status) solver.Stats {
	return solver.Stats{Expanded: h.expanded, Elapsed: h.own}
}

// TestRoundsRunOnceBesideHolders: with one thread, a run-once member
// listed after a resumable one starts while that one holds its tables:
// what the two hold at once stays within the memory limit.
func TestRoundsRunOnceBesideHolders(t *testing.T) {
	var done atomic.Bool
	var hogGot atomic.Int64
	h := &holder{done: &done}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: h, Share: 1},
		{Name: "hog", Solver: hog{&done, &hogGot}, Share: 1},
	}}
	const memory = 1 << 20
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: 5 * time.Second, Memory: memory}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Bytes > memory {
		t.Errorf("run-once member's memory %d, the resumable one's %d: they held %d bytes at once, over the %d limit",
			hogGot.Load(), h.budget.Load(), res.Stats.Bytes, memory)
	}
}

// TestRoundsThreadsMemoryWithin: with two threads, a run-once member that
// runs beside four resumable members, which keep their tables while
// paused: what they hold at once never passes Budget.Memory.
func TestRoundsThreadsMemoryWithin(t *testing.T) {
	var done atomic.Bool
	var hogGot atomic.Int64
	hs := []*holder{{done: &done}, {done: &done}, {done: &done}, {done: &done}}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "hog", Solver: hog{&done, &hogGot}, Share: 1},
		{Name: "a", Resumable: hs[0], Share: 1},
		{Name: "b", Resumable: hs[1], Share: 1},
		{Name: "c", Resumable: hs[2], Share: 1},
		{Name: "d", Resumable: hs[3], Share: 1},
	}}
	const memory = 1 << 20
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Time: 5 * time.Second, Memory: memory}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Bytes > memory {
		t.Errorf("run-once member's memory %d, a resumable one's %d: they held %d bytes at once, over the %d limit",
			hogGot.Load(), hs[0].budget.Load(), res.Stats.Bytes, memory)
	}
}
