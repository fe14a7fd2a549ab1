package solver_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"soko/level"
	"soko/solver"
)

// stepper is a fake resumable member: it expands one node per Guard.Tick,
// pauses at its slice's end, solves the level (or lies about it) after
// solveAt expansions, gives up after giveUpAt, and reports every slice
// after its first stalled when stall is set. It records each slice it was
// given and the knowledge it was shared.
type stepper struct {
	solveAt, giveUpAt int64  // 0: never
	lurd              string // the solution it returns; "rRR" when empty
	stall             bool
	bytes             int64         // held per expansion
	opening           float64       // the part of its share its first slice expands before it can pause, as fess's openings
	setUp             time.Duration // its first slice's wait before it expands, as a search's set-up

	mu       sync.Mutex
	expanded int64
	own      time.Duration
	slices   []solver.Slice
	budgets  []solver.Budget
	seeds    []uint64
	shared   []int // how many others each Share call handed it
	inFirst  bool  // a Share call came while its first slice ran
	ended    solver.Status
	endedOK  bool
	paused   bool // its last slice paused

	name   string
	events *eventLog // where it notes its slices, Share calls and giving up, when set
}

// eventLog is the order of the steppers' slices, Share calls and ends.
type eventLog struct {
	mu  sync.Mutex
	log []string
}

func (e *eventLog) note(s string) {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.log = append(e.log, s)
	e.mu.Unlock()
}

func (s *stepper) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	g := solver.NewGuard(ctx, opts)
	s.mu.Lock()
	s.paused = false
	s.slices = append(s.slices, sl)
	s.budgets = append(s.budgets, opts.Budget)
	s.seeds = append(s.seeds, opts.Seed)
	first := len(s.slices) == 1
	s.mu.Unlock()
	s.events.note(s.name + " slice")
	if first {
		time.Sleep(s.setUp)
	}
	stats := func() solver.Stats {
		return solver.Stats{Expanded: s.expanded, Bytes: s.expanded * s.bytes, Elapsed: s.own + g.Elapsed()}
	}
	for {
		st := stats()
		switch {
		case s.solveAt > 0 && s.expanded >= s.solveAt:
			lurd := s.lurd
			if lurd == "" {
				lurd = "rRR"
			}
			moves, _ := level.ParseLURD(lurd)
			return solver.Result{Status: solver.Solved, Moves: moves, Stats: st}, solver.Pause{}, nil
		case s.giveUpAt > 0 && s.expanded >= s.giveUpAt:
			s.events.note(s.name + " ends")
			return solver.Result{Status: solver.GaveUp, Stats: st}, solver.Pause{}, nil
		case first && s.expanded < int64(float64(sl.Whole.Nodes)*s.opening):
			// in its opening: no pause
		case sl.Until.Nodes > 0 && s.expanded >= sl.Until.Nodes || sl.Until.Time > 0 && st.Elapsed >= sl.Until.Time:
			s.own = st.Elapsed
			s.mu.Lock()
			s.paused = true
			s.mu.Unlock()
			return solver.Result{Status: solver.NodeLimit, Stats: st}, solver.Pause{Paused: true, Improved: first || !s.stall, Stalled: !first && s.stall}, nil
		}
		if status, stop := g.Tick(&st); stop {
			return solver.Result{Status: status, Stats: st}, solver.Pause{}, nil
		}
		s.expanded++
	}
}

func (s *stepper) End(st solver.Status) solver.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended, s.endedOK = st, true
	return solver.Stats{Expanded: s.expanded, Bytes: s.expanded * s.bytes, Elapsed: s.own}
}

func (s *stepper) Share(others []solver.Resumable) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shared = append(s.shared, len(others))
	s.inFirst = s.inFirst || len(s.slices) == 1 && !s.paused
	s.events.note(fmt.Sprintf("%s share %d", s.name, len(others)))
}

// untils returns the node ends of the slices s was given.
func (s *stepper) untils() []int64 {
	var out []int64
	for _, sl := range s.slices {
		out = append(out, sl.Until.Nodes)
	}
	return out
}

// TestRoundsSlicesDouble: under a node limit two resumable members of equal
// share take turns in slices that double, from a sixteenth of the share
// (their opening besides on the first), each resumed with what it had, and
// the run ends on the limit with every node counted once; a second run
// gives the same slices (the rounds are deterministic).
func TestRoundsSlicesDouble(t *testing.T) {
	run := func() (*stepper, *stepper, solver.Result) {
		a, b := &stepper{}, &stepper{}
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "a", Resumable: a, Share: 1, Opening: 1.0 / 16},
			{Name: "b", Resumable: b, Share: 1},
		}}
		res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Seed: 5, Budget: solver.Budget{Nodes: 1600}})
		if err != nil {
			t.Fatal(err)
		}
		return a, b, res
	}
	a, b, res := run()
	if got, want := a.untils(), []int64{100, 200, 400, 800}; !reflect.DeepEqual(got[:min(len(got), 4)], want) {
		t.Errorf("a's slices end at %v, want %v first", got, want)
	}
	if got, want := b.untils(), []int64{50, 100, 200, 400}; !reflect.DeepEqual(got[:min(len(got), 4)], want) {
		t.Errorf("b's slices end at %v, want %v first", got, want)
	}
	if a.slices[0].Whole.Nodes != 800 || a.seeds[0] != 5 || b.seeds[0] != 6 {
		t.Errorf("a's share %d nodes, seeds %d and %d; want 800, 5 and 6", a.slices[0].Whole.Nodes, a.seeds[0], b.seeds[0])
	}
	if res.Status != solver.NodeLimit || res.Stats.Expanded != 1600 || a.expanded+b.expanded != 1600 {
		t.Errorf("%v after %d expansions (a %d, b %d); want the node limit at 1,600", res.Status, res.Stats.Expanded, a.expanded, b.expanded)
	}
	if !a.endedOK || !b.endedOK || a.ended != solver.NodeLimit || b.ended != solver.NodeLimit {
		t.Errorf("the member left paused was not ended with the run's status: a %v %v, b %v %v", a.endedOK, a.ended, b.endedOK, b.ended)
	}
	a2, b2, res2 := run()
	if !reflect.DeepEqual(a.slices, a2.slices) || !reflect.DeepEqual(b.slices, b2.slices) || res2.Stats.Expanded != res.Stats.Expanded {
		t.Errorf("two runs differ: a %v then %v, b %v then %v", a.untils(), a2.untils(), b.untils(), b2.untils())
	}
}

// TestRoundsSliceEndsAtShare: a slice that begins below the member's
// share ends there at the latest where doubling would pass it (after a
// first slice with an opening), so at the limit each of two members of
// equal share has had its share, not the first what a doubled slice gave.
func TestRoundsSliceEndsAtShare(t *testing.T) {
	a, b := &stepper{opening: 1.0 / 3}, &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 1, Opening: 1.0 / 3},
		{Name: "b", Resumable: b, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 1600}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.untils(), []int64{316, 632, 800}; !reflect.DeepEqual(got[:min(len(got), 3)], want) {
		t.Errorf("a's slices end at %v, want %v first", got, want)
	}
	if res.Status != solver.NodeLimit || a.expanded != 800 || b.expanded != 800 {
		t.Errorf("%v with a %d and b %d expansions; want the node limit with 800 each", res.Status, a.expanded, b.expanded)
	}
}

// TestRoundsStalledYields: a member that stalls slice after slice has its
// weight halved, so the one that improves gets its turns: at the end it
// has had more than its equal share, the stalled one less, but never
// nothing.
func TestRoundsStalledYields(t *testing.T) {
	stuck, going := &stepper{stall: true}, &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "stuck", Resumable: stuck, Share: 1},
		{Name: "going", Resumable: going, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 20_000}})
	if err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("%v, %v", res.Status, err)
	}
	if going.expanded <= 10_000 || stuck.expanded >= 10_000 || stuck.expanded < 10_000/8 {
		t.Errorf("stuck expanded %d, going %d: want going more than half of 20,000, stuck less but at least an eighth of its share", stuck.expanded, going.expanded)
	}
}

// TestRoundsThreadsWorthKept: with threads, a stalled member whose share
// is a thread's worth or more (a k-th of the shares) keeps that worth, as
// it keeps most of its thread alone, where one with less is halved as
// with one thread: under a node limit the first has about its worth of
// the expansions, the second well under its share.
func TestRoundsThreadsWorthKept(t *testing.T) {
	big, a, b := &stepper{stall: true}, &stepper{}, &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "big", Resumable: big, Share: 3},
		{Name: "a", Resumable: a, Share: 1},
		{Name: "b", Resumable: b, Share: 1},
	}}
	const limit = 100_000
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Nodes: limit}})
	if err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("%v, %v", res.Status, err)
	}
	// Its worth is 2.5 of the 5 shares, so 2.5/4.5 of the expansions; halved
	// to an eighth of its share it would have 0.375/2.375.
	if big.expanded < limit*45/100 {
		t.Errorf("the stalled member with a thread's worth expanded %d of %d (a %d, b %d); want about 2.5/4.5", big.expanded, limit, a.expanded, b.expanded)
	}

	stuck, c, d := &stepper{stall: true}, &stepper{}, &stepper{}
	p = solver.Portfolio{Members: []solver.Member{
		{Name: "stuck", Resumable: stuck, Share: 1},
		{Name: "c", Resumable: c, Share: 1},
		{Name: "d", Resumable: d, Share: 1},
	}}
	res, err = solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Nodes: limit}})
	if err != nil || res.Status != solver.NodeLimit {
		t.Fatalf("%v, %v", res.Status, err)
	}
	if stuck.expanded >= limit/4 {
		t.Errorf("the stalled member with less than a thread's worth expanded %d of %d (c %d, d %d); want it halved, well under a third", stuck.expanded, limit, c.expanded, d.expanded)
	}
}

// TestRoundsRunOnceFirst: a run-once member runs first, once, on its share
// of the whole budget, with the whole memory; the resumable members' shares
// are then set from what it left, and the first of them to start has the
// whole memory too, since none holds any yet.
func TestRoundsRunOnceFirst(t *testing.T) {
	var first solver.Options
	a, b := &stepper{}, &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "once", Solver: spender{5, solver.GaveUp, &first}, Share: 2},
		{Name: "a", Resumable: a, Share: 49},
		{Name: "b", Resumable: b, Share: 49},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 1000, Memory: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if first.Budget.Nodes != 20 || first.Budget.Memory != 1000 {
		t.Errorf("the run-once member's budget %+v, want 20 nodes of 1,000 and the whole memory", first.Budget)
	}
	if w := a.slices[0].Whole.Nodes; w != 497 || a.slices[0].Until.Nodes != 31 || a.budgets[0].Memory != 1000 {
		t.Errorf("a's share %d, first slice to %d, memory %d; want 497 of the 995 left, 31, 1,000", w, a.slices[0].Until.Nodes, a.budgets[0].Memory)
	}
	if res.Status != solver.NodeLimit || res.Stats.Counts["once.expanded"] != 5 || res.Stats.Expanded != 1000 {
		t.Errorf("%v, counts %v; want the node limit, once 5 expanded, 1,000 in all", res.Status, res.Stats.Counts)
	}
}

// TestRoundsEarly: under a time limit longer than the portfolio's Early
// the run begins as a run of Early would: the run-once member's time and
// the resumable members' shares are cut from Early (a hundredth of the
// limit here), and once the run has gone on for Early the shares grow in
// proportion to the limit. Without Early, or under a limit no longer than
// it, or for a member alone, they are cut from the limit.
func TestRoundsEarly(t *testing.T) {
	near := func(got, want time.Duration) bool { return got > want*98/100 && got <= want }
	for _, c := range []struct {
		early, limit, once, whole time.Duration
	}{
		{time.Second, 100 * time.Second, 20 * time.Millisecond, 500 * time.Millisecond},
		{0, 100 * time.Second, 2 * time.Second, 50 * time.Second},
		{100 * time.Second, 100 * time.Second, 2 * time.Second, 50 * time.Second},
	} {
		var got solver.Options
		a := &stepper{solveAt: 1}
		p := solver.Portfolio{Early: c.early, Members: []solver.Member{
			{Name: "once", Solver: spender{5, solver.GaveUp, &got}, Share: 2},
			{Name: "a", Resumable: a, Share: 49},
			{Name: "b", Resumable: &stepper{}, Share: 49},
		}}
		res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: c.limit}})
		if err != nil || res.Status != solver.Solved {
			t.Fatalf("%v, %v; want a's solution", res.Status, err)
		}
		once, whole, first := got.Budget.Time, a.slices[0].Whole.Time, a.slices[0].Until.Time
		if !near(once, c.once) || !near(whole, c.whole) || !near(first, c.whole/16) || a.budgets[0].Time < c.limit*99/100 {
			t.Errorf("Early %v, limit %v: run-once %v, a's share %v, its first slice to %v, its budget %v; want about %v, %v, %v, %v",
				c.early, c.limit, once, whole, first, a.budgets[0].Time, c.once, c.whole, c.whole/16, c.limit)
		}
	}

	// A member alone has its share of the limit from the start.
	alone := &stepper{solveAt: 1}
	p := solver.Portfolio{Early: time.Second, Members: []solver.Member{{Name: "alone", Resumable: alone, Share: 1}}}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: 100 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	if w := alone.slices[0].Whole.Time; !near(w, 100*time.Second) {
		t.Errorf("a member alone: its share %v, want the limit's 100s", w)
	}

	// Past Early the shares grow: two members under 400 ms, Early 40 ms.
	a, b := &stepper{}, &stepper{}
	p = solver.Portfolio{Early: 40 * time.Millisecond, Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 1},
		{Name: "b", Resumable: b, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: 400 * time.Millisecond}})
	if err != nil || res.Status != solver.TimeLimit {
		t.Fatalf("%v, %v; want the time limit", res.Status, err)
	}
	// Loosely: the shares are cut from what is left when the first starts.
	roughly := func(got, want time.Duration) bool { return got > want*3/4 && got <= want }
	firstWhole, lastWhole := a.slices[0].Whole.Time, a.slices[len(a.slices)-1].Whole.Time
	if !roughly(firstWhole, 20*time.Millisecond) || !roughly(lastWhole, 200*time.Millisecond) || lastWhole < 9*firstWhole {
		t.Errorf("a's share %v in its first slice, %v in its last (of %d); want about 20ms, then 200ms", firstWhole, lastWhole, len(a.slices))
	}

	// With two threads the shares grow while a slice runs: a's first,
	// which waits 80 ms before it expands, is running when b's slice past
	// Early 40 ms grows them (go test -race: the slice's share is read as
	// it starts, not while the shares grow).
	a, b = &stepper{setUp: 80 * time.Millisecond}, &stepper{}
	p = solver.Portfolio{Early: 40 * time.Millisecond, Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 1},
		{Name: "b", Resumable: b, Share: 1},
	}}
	res, err = solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: 400 * time.Millisecond}, Threads: 2})
	if err != nil || res.Status != solver.TimeLimit {
		t.Fatalf("two threads: %v, %v; want the time limit", res.Status, err)
	}
	for _, s := range []*stepper{a, b} {
		s.mu.Lock()
		first, last := s.slices[0].Whole.Time, s.slices[len(s.slices)-1].Whole.Time
		s.mu.Unlock()
		if last < 5*first {
			t.Errorf("two threads: a member's share %v in its first slice, %v in its last; want it grown about tenfold past Early", first, last)
		}
	}
}

// TestRoundsMemoryPool: with one thread the memory limit is one pool. A
// member that needs more than an even split of it runs on past that
// split, and ends on the limit less what the others hold; the most they
// held at once is within the limit's tables (and the expansion in which
// the guard saw the member pass its part), and the member left then has
// the whole limit.
func TestRoundsMemoryPool(t *testing.T) {
	const memory = 1 << 20
	hungry, light := &stepper{bytes: 1000}, &stepper{bytes: 1}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "hungry", Resumable: hungry, Share: 1},
		{Name: "light", Resumable: light, Share: 1},
	}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 4000, Memory: memory}})
	if err != nil {
		t.Fatal(err)
	}
	tables := solver.Budget{Memory: memory}.Tables()
	if hungry.expanded*hungry.bytes <= tables/2 || hungry.paused {
		t.Errorf("hungry held %d bytes and its last slice paused: %v; want more than half the %d the limit allows, and its end there", hungry.expanded*hungry.bytes, hungry.paused, tables)
	}
	if res.Stats.Bytes > tables+hungry.bytes {
		t.Errorf("the members held %d bytes at once, over the %d the limit allows", res.Stats.Bytes, tables)
	}
	if last := light.budgets[len(light.budgets)-1].Memory; last != memory {
		t.Errorf("light's last memory %d, want the whole %d once hungry ended", last, memory)
	}
}

// TestRoundsShare: with one thread a Sharer takes the other resumable
// members still in before each of its slices, and again when one ends
// (rounds_share_test.go has threads).
func TestRoundsShare(t *testing.T) {
	a, b, c := &stepper{}, &stepper{giveUpAt: 10}, &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 1},
		{Name: "b", Resumable: b, Share: 1},
		{Name: "c", Resumable: c, Share: 1},
	}}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 3000}}); err != nil {
		t.Fatal(err)
	}
	one := slices.Index(a.shared, 1)
	if len(a.shared) < len(a.slices) || a.shared[0] != 2 || one < 0 || slices.Contains(a.shared[one:], 2) {
		t.Errorf("a had %d slices and was shared %v; want 2 others first, fewer once b gave up", len(a.slices), a.shared)
	}
}

// TestRoundsThreads: with N threads the rounds run up to N slices at once
// and stay correct: the first verified solution ends the run and the
// members still paused are ended as cancelled; a wrong solution is an
// error naming its member; without a solution the time limit ends the
// run, every slice stopped.
func TestRoundsThreads(t *testing.T) {
	for _, threads := range []int{2, 3} {
		loop1, loop2, solves := &stepper{}, &stepper{}, &stepper{solveAt: 50_000}
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "loop1", Resumable: loop1, Share: 1},
			{Name: "solves", Resumable: solves, Share: 1},
			{Name: "loop2", Resumable: loop2, Share: 1},
		}}
		res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Time: time.Minute}})
		if err != nil || res.Status != solver.Solved || res.Stats.Strategy != "solves" || res.Pushes != 2 {
			t.Fatalf("threads %d: %v by %q, %v", threads, res.Status, res.Stats.Strategy, err)
		}
		for _, s := range []*stepper{loop1, loop2} {
			s.mu.Lock()
			if s.endedOK && s.ended != solver.Cancelled {
				t.Errorf("threads %d: a paused member ended with %v, want cancelled", threads, s.ended)
			}
			s.mu.Unlock()
		}

		liar := &stepper{solveAt: 100, lurd: "rR"}
		p = solver.Portfolio{Members: []solver.Member{
			{Name: "loop", Resumable: &stepper{}, Share: 1},
			{Name: "liar", Resumable: liar, Share: 1},
		}}
		_, err = solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Time: time.Minute}})
		if err == nil || !strings.Contains(err.Error(), "member liar") || !strings.Contains(err.Error(), "invalid solution") {
			t.Errorf("threads %d: %v; want an invalid solution from member liar", threads, err)
		}

		p = solver.Portfolio{Members: []solver.Member{
			{Name: "a", Resumable: &stepper{}, Share: 1},
			{Name: "b", Resumable: &stepper{}, Share: 1},
			{Name: "c", Resumable: &stepper{}, Share: 1},
		}}
		res, err = solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Time: 200 * time.Millisecond}})
		if err != nil || res.Status != solver.TimeLimit {
			t.Errorf("threads %d: %v, %v; want the time limit", threads, res.Status, err)
		}
	}
}

// TestRoundsThreadsNodeLimit: with threads, the slices running side by
// side never pass the node limit together, and spend it all: each holds
// its allowance, a resumable one pauses at it (so no member ends for good
// before the run does), and a slice that would get too little waits for
// one to end.
func TestRoundsThreadsNodeLimit(t *testing.T) {
	for _, threads := range []int{2, 3, 8} {
		for _, limit := range []int64{1_000, 50_000} {
			steppers := []*stepper{{opening: 0.6}, {}, {}}
			var got solver.Options
			p := solver.Portfolio{Members: []solver.Member{
				{Name: "a", Resumable: steppers[0], Share: 1, Opening: 0.6},
				{Name: "once", Solver: spender{spend: limit, end: solver.GaveUp, got: &got}, Share: 1},
				{Name: "b", Resumable: steppers[1], Share: 2},
				{Name: "c", Resumable: steppers[2], Share: 1},
			}}
			res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Nodes: limit}})
			if err != nil {
				t.Fatal(err)
			}
			sum := got.Budget.Nodes // the run-once member spends all it is given
			for i, s := range steppers {
				sum += s.expanded
				if !s.endedOK || s.ended != solver.NodeLimit {
					t.Errorf("threads %d, limit %d: member %d ended for good before the run (ended by the rounds: %v)", threads, limit, i, s.endedOK)
				}
			}
			if res.Status != solver.NodeLimit || res.Stats.Expanded != sum || sum > limit || sum < limit-int64(threads) {
				t.Errorf("threads %d, limit %d: %v after %d expansions (the members' %d); want the limit, all but a few spent, never more",
					threads, limit, res.Status, res.Stats.Expanded, sum)
			}
		}
		// Fewer expansions than threads: a slice still starts, and the run
		// ends on the node limit having spent them.
		for _, limit := range []int64{1, 2} {
			p := solver.Portfolio{Members: []solver.Member{{Name: "a", Resumable: &stepper{}, Share: 1}, {Name: "b", Resumable: &stepper{}, Share: 1}}}
			res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Nodes: limit}})
			if err != nil || res.Status != solver.NodeLimit || res.Stats.Expanded != limit {
				t.Errorf("threads %d, limit %d: %v after %d expansions, %v; want the node limit after %d", threads, limit, res.Status, res.Stats.Expanded, err, limit)
			}
		}
	}
}

// TestRoundsThreadsNodeShares: under a node limit with threads, a member
// whose slices end sooner in wall time (the other in a long set-up) does
// not take the other's part of the expansions: each has about its share,
// as with one thread.
func TestRoundsThreadsNodeShares(t *testing.T) {
	fast, slow := &stepper{}, &stepper{setUp: 100 * time.Millisecond}
	p := solver.Portfolio{Members: []solver.Member{{Name: "fast", Resumable: fast, Share: 1}, {Name: "slow", Resumable: slow, Share: 1}}}
	res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Nodes: 100_000}})
	if err != nil || res.Status != solver.NodeLimit || fast.expanded > 2*slow.expanded {
		t.Errorf("%v, %v: the fast member expanded %d, the slow one %d; want about half each", res.Status, err, fast.expanded, slow.expanded)
	}
}

// TestRoundsCancelled: when the caller cancels, the rounds end with status
// cancelled, with threads or without.
func TestRoundsCancelled(t *testing.T) {
	for _, threads := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		p := solver.Portfolio{Members: []solver.Member{
			{Name: "a", Resumable: &stepper{}, Share: 1},
			{Name: "b", Resumable: &stepper{}, Share: 1},
		}}
		time.AfterFunc(20*time.Millisecond, cancel)
		res, err := solver.Run(ctx, p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Time: time.Minute}})
		if err != nil || res.Status != solver.Cancelled {
			t.Errorf("threads %d: %v, %v; want status cancelled", threads, res.Status, err)
		}
	}
}

// clocked is a stepper that notes when its first slice began.
type clocked struct {
	*stepper
	first time.Time
}

func (c *clocked) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	if c.first.IsZero() {
		c.first = time.Now()
	}
	return c.stepper.Slice(ctx, l, opts, sl)
}

// TestRoundsLate: a late member joins the rounds once the run has gone on
// for its Late, and then takes its share of what is left; without a time
// limit it does not run; alone, or with threads, it starts at once.
func TestRoundsLate(t *testing.T) {
	const late = 100 * time.Millisecond
	early, tail := &stepper{}, &clocked{stepper: &stepper{}}
	start := time.Now()
	p := solver.Portfolio{Since: start, Members: []solver.Member{
		{Name: "early", Resumable: early, Share: 1},
		{Name: "tail", Resumable: tail, Share: 3, Late: late},
	}}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: 400 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	if tail.first.IsZero() || tail.first.Sub(start) < late {
		t.Fatalf("the late member's first slice began %v into the run, want %v or later", tail.first.Sub(start), late)
	}
	if early.slices[0].Whole.Time < 250*time.Millisecond {
		t.Errorf("early's share %v: want nearly all the 400 ms, the late member's share left out (a quarter with it)", early.slices[0].Whole.Time)
	}
	if w := tail.slices[0].Whole.Time; w <= 0 || w > 3*(400*time.Millisecond-late)/4 {
		t.Errorf("the late member's share %v, want three quarters of what was left when it joined", w)
	}

	// Without a time limit, with a share before it joins (ShareBefore) or
	// without.
	for _, before := range []float64{0, 0.25} {
		nodes, untimed := &stepper{}, &stepper{}
		p.Members = []solver.Member{
			{Name: "early", Resumable: nodes, Share: 1},
			{Name: "tail", Resumable: untimed, Share: 3, Late: late, ShareBefore: before},
		}
		if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 1000}}); err != nil {
			t.Fatal(err)
		}
		if len(untimed.slices) != 0 || nodes.expanded != 1000 {
			t.Errorf("share before %g: without a time limit the late member had %d slices and the other %d of the 1,000 nodes; want none, all", before, len(untimed.slices), nodes.expanded)
		}
	}

	alone := &clocked{stepper: &stepper{solveAt: 10}}
	p.Since = time.Now()
	p.Members = []solver.Member{{Name: "tail", Resumable: alone, Share: 1, Late: time.Hour}}
	if res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: time.Second}}); err != nil || res.Status != solver.Solved {
		t.Errorf("a late member alone: %v, %v; want it solved at once", res.Status, err)
	}

	threaded := &stepper{}
	p.Since = time.Now()
	p.Members = []solver.Member{
		{Name: "early", Resumable: &stepper{}, Share: 1},
		{Name: "tail", Resumable: threaded, Share: 1, Late: time.Hour},
	}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Time: 200 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	if len(threaded.slices) == 0 {
		t.Fatal("with two threads the late member never ran; want it in from the start")
	}
	if w := threaded.slices[0].Whole.Time; w < 150*time.Millisecond {
		t.Errorf("with two threads the late member's share %v; want a thread's worth of the 200 ms", w)
	}
}

// TestRoundsShareBefore: a late member with a ShareBefore runs from the
// start on that share, as one that is not late, and takes its own share
// of what is left once the others have had its Late (without a time limit
// it does not run: TestRoundsLate).
func TestRoundsShareBefore(t *testing.T) {
	const late = 100 * time.Millisecond
	early, tail := &stepper{}, &clocked{stepper: &stepper{}}
	start := time.Now()
	p := solver.Portfolio{Since: start, Members: []solver.Member{
		{Name: "early", Resumable: early, Share: 1},
		{Name: "tail", Resumable: tail, Share: 3, Late: late, ShareBefore: 0.25},
	}}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Time: 400 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	if tail.first.IsZero() || tail.first.Sub(start) >= late/2 {
		t.Fatalf("the member's first slice began %v into the run, want at once", tail.first.Sub(start))
	}
	// Before it grows: a fifth of the 400 ms (0.25 of 1.25); after: three
	// quarters of what was left when the others had had 100 ms.
	first, last := tail.slices[0].Whole.Time, tail.slices[len(tail.slices)-1].Whole.Time
	if first < 40*time.Millisecond || first > 120*time.Millisecond {
		t.Errorf("its share before it grew %v, want about a fifth of the 400 ms", first)
	}
	if last <= first || last > 3*(400*time.Millisecond-late)/4 {
		t.Errorf("its share after it grew %v (before %v), want three quarters of what was left then", last, first)
	}
	if tail.own <= first || early.own < late {
		t.Errorf("own time: the member %v, the other %v; want the member's past its share before, the other at least %v", tail.own, early.own, late)
	}
}

// TestRoundsEndedMemberLeavesViews: once a member ends, the paused members
// are shared the others again at once, before any next slice, so that no
// view keeps what the ended member held (fess's engines: its memory goes
// to the others).
func TestRoundsEndedMemberLeavesViews(t *testing.T) {
	events := &eventLog{}
	a, b, c := &stepper{name: "a", events: events}, &stepper{name: "b", events: events}, &stepper{name: "c", events: events, giveUpAt: 150}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 1}, {Name: "b", Resumable: b, Share: 1}, {Name: "c", Resumable: c, Share: 1},
	}}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Budget: solver.Budget{Nodes: 3000}}); err != nil {
		t.Fatal(err)
	}
	log := events.log
	end := slices.Index(log, "c ends")
	if end < 0 {
		t.Fatalf("c never ended: %q", log)
	}
	next := slices.IndexFunc(log[end+1:], func(e string) bool { return strings.HasSuffix(e, " slice") })
	if next < 0 {
		t.Fatalf("no slice after c ended: %q", log[end:])
	}
	after := log[end+1 : end+1+next]
	if !slices.Contains(after, "a share 1") || !slices.Contains(after, "b share 1") {
		t.Errorf("between c's end and the next slice, %q: want a and b shared the one other", after)
	}
}

// napper is a resumable member whose every slice expands one node in
// napFor and pauses, sending no progress of its own: slices shorter than
// a guard's interval between progress events, as the rounds' first are.
type napper struct{ expanded int64 }

const napFor = 20 * time.Millisecond

func (n *napper) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	time.Sleep(napFor)
	n.expanded++
	st := solver.Stats{Expanded: n.expanded}
	if opts.Budget.Nodes > 0 && n.expanded >= opts.Budget.Nodes {
		return solver.Result{Status: solver.NodeLimit, Stats: st}, solver.Pause{}, nil
	}
	return solver.Result{Status: solver.NodeLimit, Stats: st}, solver.Pause{Paused: true, Improved: true}, nil
}

func (n *napper) End(solver.Status) solver.Stats { return solver.Stats{Expanded: n.expanded} }

// TestRoundsProgressBetweenShortSlices: when the slices are too short for
// their own guards to send progress, the rounds send it as slices end, at
// most one an interval, with the run's sums; before, such a run sent none.
func TestRoundsProgressBetweenShortSlices(t *testing.T) {
	var events []solver.Progress
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: &napper{}, Share: 1},
		{Name: "b", Resumable: &napper{}, Share: 1},
	}}
	opts := solver.Options{Budget: solver.Budget{Nodes: 30}, Progress: func(ev solver.Progress) { events = append(events, ev) }}
	start := time.Now()
	res, err := solver.Run(context.Background(), p, level1(t), opts)
	took := time.Since(start)
	if err != nil || res.Stats.Expanded < 20 {
		t.Fatalf("%v, %+v", err, res)
	}
	// 100 ms apart at least, so no more than the run's length allows; at
	// least one (slices of 20 ms, a run of at least 400 ms).
	if len(events) == 0 || len(events) > int(took/(100*time.Millisecond))+1 {
		t.Fatalf("%d events in %v", len(events), took)
	}
	for i, ev := range events {
		if ev.Strategy != "a" && ev.Strategy != "b" || i > 0 && ev.Expanded < events[i-1].Expanded {
			t.Errorf("event %d: %+v after %+v", i, ev, events[max(i-1, 0)])
		}
	}
}
