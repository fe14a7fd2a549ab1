package solver_test

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	_ "soko/search" // registers astar and greedy, the registered portfolio's members
	"soko/solver"
)

// spender is a fake member that records the options it was given, expands
// up to spend nodes within its node budget (one Guard.Tick each) and ends
// with status end, or NodeLimit when the budget stopped it first.
type spender struct {
	spend int64
	end   solver.Status
	got   *solver.Options
}

func (s spender) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	*s.got = opts
	g := solver.NewGuard(ctx, opts)
	var st solver.Stats
	for st.Expanded < s.spend {
		if status, stop := g.Tick(&st); stop {
			return solver.Result{Status: status, Stats: st}, nil
		}
		st.Expanded++
		st.Generated += 2
	}
	return solver.Result{Status: s.end, Stats: st}, nil
}

// TestPortfolioHandsOnUnusedBudget: with one thread each member gets its
// share of the nodes left when it starts, and a member that gives up early
// hands what it did not use to the members after it.
func TestPortfolioHandsOnUnusedBudget(t *testing.T) {
	var a, b, c solver.Options
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Solver: spender{10, solver.NoSolution, &a}, Share: 1},   // 25 of 100, uses 10
		{Name: "b", Solver: spender{1000, solver.NoSolution, &b}, Share: 1}, // 30 of 90, uses them all
		{Name: "c", Solver: spender{1000, solver.NoSolution, &c}, Share: 2}, // the last: all 60 left
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Seed: 7, Budget: solver.Budget{Nodes: 100, Memory: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int64{a.Budget.Nodes, b.Budget.Nodes, c.Budget.Nodes}; !reflect.DeepEqual(got, []int64{25, 30, 60}) {
		t.Errorf("node budgets %v, want [25 30 60]", got)
	}
	if a.Budget.Memory != 1<<20 || c.Budget.Memory != 1<<20 {
		t.Errorf("one at a time, each member gets the whole memory: %d, %d", a.Budget.Memory, c.Budget.Memory)
	}
	if a.Seed != 7 || b.Seed != 8 || c.Seed != 9 || a.Threads != 1 {
		t.Errorf("seeds %d %d %d, threads %d; want 7 8 9, 1", a.Seed, b.Seed, c.Seed, a.Threads)
	}
	if res.Status != solver.NodeLimit || res.Stats.Expanded != 100 || res.Stats.Generated != 200 || res.Stats.Strategy != "" {
		t.Errorf("status %v, expanded %d, generated %d, strategy %q; want node limit, 100, 200, none",
			res.Status, res.Stats.Expanded, res.Stats.Generated, res.Stats.Strategy)
	}
	want := map[string]int64{"a.expanded": 10, "b.expanded": 30, "c.expanded": 60}
	if !maps.Equal(res.Stats.Counts, want) {
		t.Errorf("counts %v, want %v", res.Stats.Counts, want)
	}
}

// looper is a fake member that runs until its context ends, as a search
// that never finds anything would, and records how it was stopped. It
// watches only its context: the portfolio must stop it at its share by the
// context's deadline.
type looper struct {
	mu       *sync.Mutex
	ran      *bool
	budget   *time.Duration
	deadline *time.Duration // from the start of Solve to the context's deadline
	why      *error
}

func newLooper() looper {
	return looper{new(sync.Mutex), new(bool), new(time.Duration), new(time.Duration), new(error)}
}

func (lp looper) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	start := time.Now()
	lp.mu.Lock()
	*lp.ran = true
	*lp.budget = opts.Budget.Time
	if d, ok := ctx.Deadline(); ok {
		*lp.deadline = d.Sub(start)
	}
	lp.mu.Unlock()
	select {
	case <-ctx.Done():
	case <-time.After(20 * time.Second):
	}
	lp.mu.Lock()
	*lp.why = ctx.Err()
	lp.mu.Unlock()
	if ctx.Err() == nil {
		return solver.Result{Status: solver.TimeLimit}, errors.New("looper: never stopped")
	}
	return solver.Result{Status: solver.Cancelled, Stats: solver.Stats{Expanded: 1}}, nil
}

func (lp looper) stopped() (budget, deadline time.Duration, why error) {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return *lp.budget, *lp.deadline, *lp.why
}

func (lp looper) started() bool {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return *lp.ran
}

// TestPortfolioStopsAMemberAtItsShare: a member that loops is stopped at its
// share of the time (by its budget and its context's deadline), and the
// next member runs and solves the level.
func TestPortfolioStopsAMemberAtItsShare(t *testing.T) {
	const total = 400 * time.Millisecond
	lp := newLooper()
	var next solver.Options
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "loop", Solver: lp, Share: 1},
		{Name: "solve", Solver: recorder{fixed{solver.Solved, "rRR"}, &next}, Share: 3},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: total}})
	if err != nil {
		t.Fatal(err)
	}
	budget, deadline, why := lp.stopped()
	if budget <= 0 || budget > total/4 || deadline <= 0 || deadline > total/4 {
		t.Errorf("the looping member's budget %v and deadline %v; want both in (0, %v]", budget, deadline, total/4)
	}
	if !errors.Is(why, context.DeadlineExceeded) {
		t.Errorf("the looping member was stopped by %v, want its deadline", why)
	}
	if next.Budget.Time <= 0 || next.Budget.Time > total-budget {
		t.Errorf("the next member's budget %v; want what was left of %v after %v", next.Budget.Time, total, budget)
	}
	if res.Status != solver.Solved || res.Stats.Strategy != "solve" || res.Pushes != 2 {
		t.Errorf("%v by %q with %d pushes; want solved by solve, 2 pushes", res.Status, res.Stats.Strategy, res.Pushes)
	}
	// Under a time limit each member's own time is counted, in ms (under
	// a node limit it is not: TestPortfolioHandsOnUnusedBudget).
	if ms := res.Stats.Counts["loop.own_ms"]; ms <= 0 {
		t.Errorf("counts %v: loop.own_ms %d, want the time it looped", res.Stats.Counts, ms)
	}
	if _, ok := res.Stats.Counts["solve.own_ms"]; !ok {
		t.Errorf("counts %v: no solve.own_ms", res.Stats.Counts)
	}
}

// recorder records the options its solver was given.
type recorder struct {
	solver.Solver
	got *solver.Options
}

func (r recorder) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	*r.got = opts
	return r.Solver.Solve(ctx, l, opts)
}

// TestPortfolioFirstSolutionCancelsTheOthers: side by side, the first
// verified solution ends the portfolio and the members still running are
// cancelled; those still waiting for a thread never start. Memory is split
// between the members that run at once.
func TestPortfolioFirstSolutionCancelsTheOthers(t *testing.T) {
	for _, threads := range []int{2, 3, 8} {
		lp1, lp2 := newLooper(), newLooper()
		var got solver.Options
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "loop1", Solver: lp1, Share: 1},
			{Name: "solve", Solver: recorder{fixed{solver.Solved, "rRR"}, &got}, Share: 1},
			{Name: "loop2", Solver: lp2, Share: 1},
		}}
		opts := solver.Options{Threads: threads, Budget: solver.Budget{Memory: 3000}}
		res, err := solver.Run(context.Background(), p, level1(t), opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solver.Solved || res.Stats.Strategy != "solve" {
			t.Errorf("threads %d: %v by %q; want solved by solve", threads, res.Status, res.Stats.Strategy)
		}
		running := min(threads, 3)
		if got.Budget.Memory != int64(3000/running) || got.Threads != 1 {
			t.Errorf("threads %d: a member's memory %d and threads %d; want %d and 1", threads, got.Budget.Memory, got.Threads, 3000/running)
		}
		if _, _, why := lp1.stopped(); !errors.Is(why, context.Canceled) {
			t.Errorf("threads %d: the first member ended with %v, want cancelled", threads, why)
		}
		if _, _, why := lp2.stopped(); lp2.started() != (threads > 2) || lp2.started() && !errors.Is(why, context.Canceled) {
			t.Errorf("threads %d: the last member started %v, ended with %v; want it run and cancelled only with 3 threads or more", threads, lp2.started(), why)
		}
		if want := int64(running - 1); res.Stats.Expanded != want {
			t.Errorf("threads %d: expanded %d, want %d (one per looper that ran)", threads, res.Stats.Expanded, want)
		}
	}
}

// TestPortfolioQueuedMemberStarts: with two threads and three members, the
// first runs under its share of twice the time, and when it ends the third
// starts in its thread and solves the level while the second still runs.
func TestPortfolioQueuedMemberStarts(t *testing.T) {
	const total = 600 * time.Millisecond
	lp1, lp2 := newLooper(), newLooper()
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "loop1", Solver: lp1, Share: 1},
		{Name: "loop2", Solver: lp2, Share: 1},
		{Name: "solve", Solver: fixed{solver.Solved, "rRR"}, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Time: total}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solver.Solved || res.Stats.Strategy != "solve" {
		t.Errorf("%v by %q; want solved by solve", res.Status, res.Stats.Strategy)
	}
	if budget, _, why := lp1.stopped(); budget <= 0 || budget > total*2/3 || !errors.Is(why, context.DeadlineExceeded) {
		t.Errorf("the first member: budget %v, stopped by %v; want a third of twice %v and its deadline", budget, why, total)
	}
	if budget, _, why := lp2.stopped(); budget <= 0 || budget > total || !errors.Is(why, context.Canceled) {
		t.Errorf("the second member: budget %v, stopped by %v; want what is left of %v and cancelled", budget, why, total)
	}
}

// TestPortfolioVerifiesMembers: a member's wrong solution is caught by the
// verifier and ends the portfolio with an error naming the member, one
// thread or two.
func TestPortfolioVerifiesMembers(t *testing.T) {
	for _, threads := range []int{1, 2} {
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "liar", Solver: fixed{solver.Solved, "rR"}, Share: 1},
			{Name: "loop", Solver: newLooper(), Share: 1},
		}}
		_, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads})
		if err == nil || !strings.Contains(err.Error(), "member liar") || !strings.Contains(err.Error(), "invalid solution") {
			t.Errorf("threads %d: %v; want an invalid solution from member liar", threads, err)
		}
	}
}

// TestPortfolioProofEndsIt: an exhaustive member's "no solution" ends the
// portfolio; another member's hands on to the next.
func TestPortfolioProofEndsIt(t *testing.T) {
	for _, exhaustive := range []bool{true, false} {
		var got solver.Options
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "none", Solver: fixed{solver.NoSolution, ""}, Share: 1, Exhaustive: exhaustive},
			{Name: "next", Solver: recorder{fixed{solver.TimeLimit, ""}, &got}, Share: 1},
		}}
		res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		ran := got.Budget.Time > 0
		if want := map[bool]solver.Status{true: solver.NoSolution, false: solver.TimeLimit}[exhaustive]; res.Status != want || ran == exhaustive {
			t.Errorf("exhaustive %v: status %v, next member ran %v", exhaustive, res.Status, ran)
		}
	}
}

// TestPortfolioNoProofGivesUp: a member that is not exhaustive and ends
// last with "no solution" proves nothing; the portfolio gave up.
func TestPortfolioNoProofGivesUp(t *testing.T) {
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "first", Solver: fixed{solver.TimeLimit, ""}, Share: 1},
		{Name: "none", Solver: fixed{solver.NoSolution, ""}, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: time.Minute}})
	if err != nil || res.Status != solver.GaveUp {
		t.Errorf("status %v, %v; want GaveUp", res.Status, err)
	}
}

// TestPortfolioDeterministic: the registered portfolio, one thread, under a
// node limit, gives the same results and counters run after run; where
// astar solves a level within its share, the solution is push-optimal (as
// long as astar's alone).
func TestPortfolioDeterministic(t *testing.T) {
	e, ok := solver.Lookup("portfolio")
	if !ok {
		t.Fatal("portfolio is not registered")
	}
	astar, _ := solver.Lookup("astar")
	byStrategy := map[string]int{}
	for _, l := range testlevel.Resolve(t, "microban:1-12") {
		opts := solver.Options{Seed: 3, Budget: solver.Budget{Nodes: 100}}
		var runs [2]solver.Result
		for i := range runs {
			res, err := solver.Run(context.Background(), e.New(), l, opts)
			if err != nil {
				t.Fatal(err)
			}
			res.Stats.Elapsed = 0
			runs[i] = res
		}
		if !reflect.DeepEqual(runs[0], runs[1]) {
			t.Errorf("%s: two runs differ:\n%+v\n%+v", l.Name(), runs[0], runs[1])
		}
		res := runs[0]
		byStrategy[res.Stats.Strategy]++
		if res.Stats.Strategy != "astar" {
			continue
		}
		opt, err := solver.Run(context.Background(), astar.New(), l, solver.Options{Budget: solver.Budget{Nodes: 20}})
		if err != nil || opt.Status != solver.Solved || opt.Pushes != res.Pushes {
			t.Errorf("%s: the portfolio's astar found %d pushes, astar alone %d (%v, %v)", l.Name(), res.Pushes, opt.Pushes, opt.Status, err)
		}
	}
	if byStrategy["astar"] == 0 || byStrategy["greedy"] == 0 {
		t.Errorf("solved by %v; want some levels by each member", byStrategy)
	}
}

// TestPortfolioProgress: progress events carry the sums over the members
// and name the member that sent them.
func TestPortfolioProgress(t *testing.T) {
	var events []solver.Progress
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Solver: spender{10, solver.NoSolution, new(solver.Options)}, Share: 1},
		{Name: "b", Solver: reporter{}, Share: 1},
	}}
	opts := solver.Options{Progress: func(ev solver.Progress) { events = append(events, ev) }}
	if _, err := solver.Run(context.Background(), p, level1(t), opts); err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Strategy != "b" || events[0].Expanded != 15 || events[0].Board[0] != "board" {
		t.Errorf("events %+v; want one from b with 10 + 5 expanded", events)
	}
}

// reporter sends one progress event with 5 states expanded.
type reporter struct{}

func (reporter) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	st := solver.Stats{Expanded: 5}
	opts.Progress(solver.Progress{Stats: st, Board: []string{"board"}})
	return solver.Result{Status: solver.NoSolution, Stats: st}, nil
}

// TestPortfolioBadMembers: a portfolio that cannot run says why, naming the
// member, before anything runs.
func TestPortfolioBadMembers(t *testing.T) {
	ok := fixed{solver.Solved, "rRR"}
	for _, tt := range []struct {
		members []solver.Member
		want    string
	}{
		{nil, "no member has a share"},
		{[]solver.Member{{Name: "a", Solver: ok}}, "no member has a share"},
		{[]solver.Member{{Solver: ok, Share: 1}}, "member 1 has no name"},
		{[]solver.Member{{Name: "a", Solver: ok, Share: 1}, {Name: "a", Solver: ok, Share: 1}}, "member a is named twice"},
		{[]solver.Member{{Name: "a", Solver: ok, Share: -1}}, "share -1"},
		{[]solver.Member{{Name: "nosuchsolver", Share: 1}}, "nosuchsolver is not a registered solver"},
		{[]solver.Member{{Name: "astar", Share: 1, Params: map[string]string{"w": "2"}}}, `astar takes no parameter "w"`},
		{[]solver.Member{{Name: "greedy", Share: 1, Params: map[string]string{"rooms": "NaN"}}}, `rooms="NaN"`},
	} {
		_, err := solver.Run(context.Background(), solver.Portfolio{Members: tt.members}, level1(t), solver.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want an error with %q", tt.members, err, tt.want)
		}
	}
	// A member with share 0 does not run.
	var got solver.Options
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "off", Solver: recorder{ok, &got}},
		{Name: "on", Solver: ok, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Seed: 1})
	if err != nil || res.Stats.Strategy != "on" || got.Seed != 0 {
		t.Errorf("share 0: solved by %q (%v), the member with share 0 ran: %v", res.Stats.Strategy, err, got.Seed != 0)
	}
}

// TestPortfolioCancelled: when the caller cancels, the portfolio ends with
// status cancelled and its members are stopped.
func TestPortfolioCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	lp := newLooper()
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "loop", Solver: lp, Share: 1},
		{Name: "solve", Solver: fixed{solver.Solved, "rRR"}, Share: 1},
	}}
	time.AfterFunc(20*time.Millisecond, cancel)
	res, err := solver.Run(ctx, p, level1(t), solver.Options{})
	if err != nil || res.Status != solver.Cancelled {
		t.Errorf("%v, %v; want status cancelled", res.Status, err)
	}
}

// BenchmarkPortfolioOverhead: the registered portfolio against astar alone
// on a level astar solves at once, where the portfolio's cost is its own.
func BenchmarkPortfolioOverhead(b *testing.B) {
	l := testlevel.Resolve(b, "microban:1")[0]
	for _, name := range []string{"astar", "portfolio"} {
		e, _ := solver.Lookup(name)
		b.Run(name, func(b *testing.B) {
			opts := solver.Options{Budget: solver.Budget{Time: 10 * time.Second, Memory: 1 << 30}}
			for b.Loop() {
				if res, err := solver.Run(context.Background(), e.New(), l, opts); err != nil || res.Status != solver.Solved {
					b.Fatal(res.Status, err)
				}
			}
		})
	}
}

// TestPortfolioSince: time spent before Solve, from Since on, counts
// against the time limit: with all of it spent, no member runs.
func TestPortfolioSince(t *testing.T) {
	var got solver.Options
	p := solver.Portfolio{Since: time.Now().Add(-time.Second), Members: []solver.Member{
		{Name: "solve", Solver: recorder{fixed{solver.Solved, "rRR"}, &got}, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: time.Second / 2}})
	if err != nil || res.Status != solver.TimeLimit || got.Budget.Time != 0 {
		t.Errorf("%v, %v, the member ran with %v; want time limit before any member", res.Status, err, got.Budget.Time)
	}
}
