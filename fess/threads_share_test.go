package fess

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/search"
	"soko/solver"
	"soko/verify"
)

// TestThreadsMeet: with two threads the back strategy and forward ones
// run side by side and still meet (solver.Sharer with threads): on
// Microban 146, where back alone needs 4,553 expansions, three strategies
// on two threads within 8,000 solve it by a meeting of back's store and a
// forward tree (not back reaching the start), each search reading the
// other's tables only while the other is paused (go test -race finds a
// read beside a write); solver.Run verifies the spliced solution.
func TestThreadsMeet(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	opts := solver.Options{Threads: 2, Budget: solver.Budget{Nodes: 8000}, Params: map[string]string{"strategies": "dive,plan,back"}}
	res, err := solver.Run(context.Background(), FESS{}, l, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Stats.Counts
	if res.Status != solver.Solved || c["back.met.other"]+c["dive.met.back"]+c["plan.met.back"] == 0 {
		t.Errorf("%v after %d expansions, counts %v: want a meeting of back and a forward tree", res.Status, res.Stats.Expanded, c)
	}
}

// TestCatchUp: a meeting missed while the other store was out of view is
// found when it comes back (catchup.go), in both directions, on Microban
// 146 (TestBackMeetsOthers, TestForwardMeetsBack): back searched 300
// expansions with no tree in view, then given plan's tree of 2,000, ends
// with the spliced solution; plan searched 2,000 with no store in view,
// then given back's store of 3,000, likewise. Both solutions replay.
func TestCatchUp(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	search := func(s string, nodes int) (*engine, loop) {
		opts := solver.Options{Budget: solver.Budget{Nodes: 1 << 30}}
		e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
		if err != nil || e == nil {
			t.Fatalf("%s: no engine: %v", s, err)
		}
		e.use(row(s))
		run := newMember(e.strat).newLoop(e)
		if _, done, err := run.begin(); done || err != nil {
			t.Fatalf("%s ended in its set-up: %v", s, err)
		}
		for range nodes {
			if res, done, _ := run.step(); done {
				t.Fatalf("%s ended alone: %v", s, res.Status)
			}
		}
		return e, run
	}
	pe, plan := search("plan", 2000)
	be, back := search("back", 300)
	back.take(knowledge{trees: []*engine{pe}})
	res, err := be.meets.res, be.meets.err
	if !be.meets.found || err != nil || res.Status != solver.Solved || be.meeting.in != pe {
		t.Fatalf("back given plan's tree: %v, %v, met in plan's tree: %v", res.Status, err, be.meeting.in == pe)
	}
	if r := verify.Replay(l, res.Moves); !r.Solved {
		t.Errorf("back's spliced solution does not solve the level: %s", r.Reason)
	}

	be, _ = search("back", 3000)
	plan.take(knowledge{back: be.back})
	res, err = pe.meets.res, pe.meets.err
	if !pe.meets.found || err != nil || res.Status != solver.Solved || pe.meeting.from != be.back {
		t.Fatalf("plan given back's store: %v, %v, met in back's store: %v", res.Status, err, pe.meeting.from == be.back)
	}
	if r := verify.Replay(l, res.Moves); !r.Solved {
		t.Errorf("plan's spliced solution does not solve the level: %s", r.Reason)
	}
}

// TestMeetsBiGreedy: a forward strategy's search that stores a position
// bigreedy's backward search holds (a paused search.BiGreedyMember given
// in its knowledge) ends with the spliced solution, which replays: on
// Microban 146, plan meets 500 expansions of bigreedy's backward search
// within its first 50 steps.
func TestMeetsBiGreedy(t *testing.T) {
	l := testlevel.Resolve(t, "microban:146")[0]
	bg := &search.BiGreedyMember{}
	budget := solver.Budget{Nodes: 1 << 30}
	if _, pause, err := bg.Slice(context.Background(), l, solver.Options{Budget: budget, Params: map[string]string{"back": "1"}}, solver.Slice{Whole: budget, Until: solver.Budget{Nodes: 500}}); err != nil || !pause.Paused {
		t.Fatalf("bigreedy did not pause: %v", err)
	}
	opts := solver.Options{Budget: budget}
	e, _, err := newEngine(l, solver.NewGuard(context.Background(), opts), opts, nil, nil)
	if err != nil || e == nil {
		t.Fatalf("no engine: %v", err)
	}
	e.use(row("plan"))
	run := newMember(e.strat).newLoop(e)
	run.take(knowledge{tails: []tailer{bg}})
	if _, done, err := run.begin(); done || err != nil {
		t.Fatalf("plan ended in its set-up: %v", err)
	}
	for i := range 50 {
		res, done, err := run.step()
		if !done {
			continue
		}
		if err != nil || res.Status != solver.Solved || !e.metTail {
			t.Fatalf("plan ended after %d steps: %v, %v, met bigreedy's search: %v", i, res.Status, err, e.metTail)
		}
		if r := verify.Replay(l, res.Moves); !r.Solved {
			t.Fatalf("the spliced solution does not solve the level: %s", r.Reason)
		}
		return
	}
	t.Fatal("plan did not meet bigreedy's search in 50 steps")
}
