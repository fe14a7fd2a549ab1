package solve

import (
	"context"
	"testing"
	"time"

	"soko/internal/testboard"
	"soko/internal/testlevel"
	"soko/level"
	"soko/optimize"
	"soko/search"
	"soko/solver"
	"soko/verify"
)

// Greedy's solution of Microban 3 is 15 pushes and 59 moves; Run
// returns the push-optimal 13 and 41, verified, and says what greedy found.
func TestSolveShortens(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	for _, c := range []struct {
		p             Policy
		pushes, moves int
	}{
		{Policy{}, 13, 41},
		{Policy{Metric: optimize.Moves}, 13, 41},
		{Policy{Off: true}, 15, 59},
	} {
		out, err := Run(context.Background(), search.Greedy{}, l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}}, c.p)
		if err != nil || out.Status != solver.Solved {
			t.Fatalf("%v: %v %v", c.p, out.Status, err)
		}
		rep := verify.Replay(l, out.Moves)
		if !rep.Solved || rep.Pushes != c.pushes || rep.Moves != c.moves || out.Pushes != c.pushes {
			t.Errorf("%v: %d pushes (Pushes %d), %d moves, solved %v; want %d and %d", c.p, rep.Pushes, out.Pushes, rep.Moves, rep.Solved, c.pushes, c.moves)
		}
		if out.Found != (optimize.Score{Pushes: 15, Moves: 59}) || out.Optimized == c.p.Off || (!c.p.Off && !out.Complete) {
			t.Errorf("%v: found %+v, optimized %v, complete %v", c.p, out.Found, out.Optimized, out.Complete)
		}
	}
}

// A solution of many times the start's lower bound is searched again by
// A*, whose optimum the optimizer then starts from: depth-first search
// wanders to 312 pushes on Microban 5, whose optimum is 6. Greedy's 15 on
// Microban 3 is less than WanderRatio times its bound: no search again.
func TestSolveSearchesWanderingAgain(t *testing.T) {
	for _, c := range []struct {
		level           string
		s               solver.Solver
		found, resolved optimize.Score
		pushes          int
	}{
		{"microban:5", search.DFS{}, optimize.Score{Pushes: 312, Moves: 1417}, optimize.Score{Pushes: 6, Moves: 27}, 6},
		{"microban:3", search.Greedy{}, optimize.Score{Pushes: 15, Moves: 59}, optimize.Score{}, 13},
	} {
		l := testlevel.Resolve(t, c.level)[0]
		out, err := Run(context.Background(), c.s, l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}}, Policy{})
		if err != nil || out.Status != solver.Solved {
			t.Fatalf("%s: %v %v", c.level, out.Status, err)
		}
		if out.Found != c.found || out.Resolved != c.resolved || out.Pushes != c.pushes {
			t.Errorf("%s: found %+v, A* %+v, final %d pushes; want %+v, %+v, %d", c.level, out.Found, out.Resolved, out.Pushes, c.found, c.resolved, c.pushes)
		}
		if rep := verify.Replay(l, out.Moves); !rep.Solved || rep.Pushes != out.Pushes {
			t.Errorf("%s: the solution does not replay to %d pushes: %+v", c.level, out.Pushes, rep)
		}
	}
}

// fake returns a fixed solution after sleeping for a share of its time
// budget, and remembers the budget it was given.
type fake struct {
	moves  []level.Move
	share  float64
	budget *solver.Budget
	cancel context.CancelFunc // called before returning, when set
}

func (f fake) Solve(ctx context.Context, l *level.Level, opts solver.Options) (solver.Result, error) {
	*f.budget = opts.Budget
	time.Sleep(time.Duration(f.share * float64(opts.Budget.Time)))
	if f.cancel != nil {
		f.cancel()
	}
	return solver.Result{Status: solver.Solved, Moves: f.moves}, nil
}

// The search gets the level's whole time limit, and the optimizer its
// own time after it: on a board where the optimizer has more to do than
// that, it stops in time with a verified solution.
func TestSolveGivesTheSearchItsLimit(t *testing.T) {
	l, moves := testboard.Detours(t, 60)
	const limit, optTime = 400 * time.Millisecond, 300 * time.Millisecond
	// Wall time is no assertion (a loaded machine stretches it): the budget
	// the search is handed is checked exactly, and the wall clock only
	// for a run that ignores its limit altogether, at several times it.
	const slack = 2 * time.Second
	for _, share := range []float64{0, 1} {
		var got solver.Budget
		start := time.Now()
		out, err := Run(context.Background(), fake{moves: moves, share: share, budget: &got}, l, solver.Options{Budget: solver.Budget{Time: limit}}, Policy{Time: optTime})
		took := time.Since(start)
		if err != nil || out.Status != solver.Solved || !out.Optimized {
			t.Fatalf("search share %v: %v %v, optimized %v", share, out.Status, err, out.Optimized)
		}
		if got.Time != limit {
			t.Errorf("the search got %v of %v, want all of it", got.Time, limit)
		}
		if took > limit+optTime+slack || out.Time > optTime+slack {
			t.Errorf("search share %v: took %v, the optimizer %v, over the limit %v and its time %v", share, took, out.Time, limit, optTime)
		}
		if out.SolveTime > took || out.SolveTime+out.Time > took {
			t.Errorf("search share %v: search %v and optimizer %v, more than the %v of the whole", share, out.SolveTime, out.Time, took)
		}
		if rep := verify.Replay(l, out.Moves); !rep.Solved || rep.Pushes != out.Pushes || rep.Pushes > out.Found.Pushes {
			t.Errorf("search share %v: %d pushes (Pushes %d) from %+v, solved %v", share, rep.Pushes, out.Pushes, out.Found, rep.Solved)
		}
		t.Logf("search share %v: took %v, optimizer %v, complete %v, %+v → %d pushes", share, took, out.Time, out.Complete, out.Found, out.Pushes)
	}
}

// event is one call of Events, as a recorder saw it.
type event struct {
	found bool // Found; else Improved
	score optimize.Score
}

// record returns Events that append each call to *log, and check that
// Found's Outcome holds the search's answer and its time.
func record(t *testing.T, log *[]event) Events {
	return Events{
		Found: func(o Outcome) {
			if o.Status != solver.Solved || o.Found != (optimize.Score{Pushes: o.Pushes, Moves: len(o.Moves)}) || o.SolveTime <= 0 || o.Optimized {
				t.Errorf("Found heard %v, %+v (%d pushes, %d moves), search %v, optimized %v", o.Status, o.Found, o.Pushes, len(o.Moves), o.SolveTime, o.Optimized)
			}
			*log = append(*log, event{true, o.Found})
		},
		Improved: func(s optimize.Score) { *log = append(*log, event{false, s}) },
	}
}

// Events hear the answer as it grows: Found once, first, with the
// search's solution; then each Improved strictly shorter in the metric
// than the one before; the final solution is the last improvement (or
// the found one when there is none). Greedy's 15 pushes on Microban 3
// are optimized to 13; depth-first search's 312 on Microban 5 are
// searched again by A* (6), which Improved hears too; the Detours board's
// solution is shortened step by step, with no time limit; with the optimizer off only
// Found is heard.
func TestSolveEvents(t *testing.T) {
	detours, moves := testboard.Detours(t, 4)
	var unused solver.Budget
	for _, c := range []struct {
		name     string
		l        *level.Level
		s        solver.Solver
		p        Policy
		improved int // at least this many Improved
	}{
		{"microban:3 greedy", testlevel.Resolve(t, "microban:3")[0], search.Greedy{}, Policy{}, 1},
		{"microban:3 greedy moves", testlevel.Resolve(t, "microban:3")[0], search.Greedy{}, Policy{Metric: optimize.Moves}, 1},
		{"microban:5 dfs", testlevel.Resolve(t, "microban:5")[0], search.DFS{}, Policy{}, 1},
		{"detours", detours, fake{moves: moves, budget: &unused}, Policy{Time: NoLimit}, 2},
		{"microban:3 off", testlevel.Resolve(t, "microban:3")[0], search.Greedy{}, Policy{Off: true}, 0},
	} {
		var log []event
		c.p.Events = record(t, &log)
		start := time.Now()
		out, err := Run(context.Background(), c.s, c.l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}}, c.p)
		took := time.Since(start)
		if err != nil || out.Status != solver.Solved {
			t.Fatalf("%s: %v %v", c.name, out.Status, err)
		}
		if len(log) == 0 || !log[0].found || log[0].score != out.Found {
			t.Fatalf("%s: events %+v: want Found with %+v first", c.name, log, out.Found)
		}
		if len(log)-1 < c.improved || (c.p.Off && len(log) > 1) {
			t.Errorf("%s: %d improvements %+v, want at least %d", c.name, len(log)-1, log[1:], c.improved)
		}
		for i := 1; i < len(log); i++ {
			if log[i].found || !c.p.Metric.Better(log[i].score, log[i-1].score) {
				t.Errorf("%s: event %d %+v after %+v: want an Improved shorter in %v", c.name, i, log[i], log[i-1], c.p.Metric)
			}
		}
		final := optimize.Score{Pushes: out.Pushes, Moves: len(out.Moves)}
		if last := log[len(log)-1].score; last != final {
			t.Errorf("%s: the last event says %+v, the answer is %+v", c.name, last, final)
		}
		if out.Resolved != (optimize.Score{}) && log[1].score != out.Resolved {
			t.Errorf("%s: A*'s %+v was not the first improvement: %+v", c.name, out.Resolved, log[1:])
		}
		if out.SolveTime <= 0 || out.SolveTime+out.Time > took {
			t.Errorf("%s: search %v and optimizer %v, against %v for the whole", c.name, out.SolveTime, out.Time, took)
		}
	}
}

// Cancelled as the search returns, Run gives the solver's own solution
// at once.
func TestSolveCancelled(t *testing.T) {
	l, moves := testboard.Detours(t, 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got solver.Budget
	start := time.Now()
	out, err := Run(ctx, fake{moves: moves, budget: &got, cancel: cancel}, l, solver.Options{}, Policy{})
	if err != nil || out.Status != solver.Solved || out.Optimized || out.Pushes != out.Found.Pushes || len(out.Moves) != len(moves) {
		t.Fatalf("%v %v, optimized %v, %d pushes from %+v", out.Status, err, out.Optimized, out.Pushes, out.Found)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancelled, took %v", took)
	}
}
