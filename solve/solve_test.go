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

// The optimizer's share fits inside the time limit: a search that takes
// its whole budget leaves the optimizer the reserve, one that takes none
// leaves it half the limit (and A*, should the solution wander, a quarter
// before it), and on a board where the optimizer
// has more to do than that it stops in time with a verified solution.
func TestSolveStaysInsideTheLimit(t *testing.T) {
	l, moves := testboard.Detours(t, 60)
	const limit = time.Second
	// Wall time is no assertion (a loaded machine stretches it): the budget
	// the search is handed is checked exactly, and the wall clock only
	// for a run that ignores its limit altogether, at several times it.
	const slack = 2 * limit
	for _, share := range []float64{0, 1} {
		var got solver.Budget
		start := time.Now()
		out, err := Run(context.Background(), fake{moves: moves, share: share, budget: &got}, l, solver.Options{Budget: solver.Budget{Time: limit}}, Policy{})
		took := time.Since(start)
		if err != nil || out.Status != solver.Solved || !out.Optimized {
			t.Fatalf("search share %v: %v %v, optimized %v", share, out.Status, err, out.Optimized)
		}
		if got.Time != limit-MinTime {
			t.Errorf("the search got %v of %v, want %v", got.Time, limit, limit-MinTime)
		}
		if took > limit+slack || out.Time > limit+slack {
			t.Errorf("search share %v: took %v, the optimizer %v, over the limit %v", share, took, out.Time, limit)
		}
		if rep := verify.Replay(l, out.Moves); !rep.Solved || rep.Pushes != out.Pushes || rep.Pushes > out.Found.Pushes {
			t.Errorf("search share %v: %d pushes (Pushes %d) from %+v, solved %v", share, rep.Pushes, out.Pushes, out.Found, rep.Solved)
		}
		t.Logf("search share %v: took %v, optimizer %v, complete %v, %+v → %d pushes", share, took, out.Time, out.Complete, out.Found, out.Pushes)
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
