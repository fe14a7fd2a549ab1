package optimize

import (
	"context"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/search"
	"soko/solver"
	"soko/verify"
)

func TestPolicyShares(t *testing.T) {
	var p Policy
	for _, c := range []struct {
		limit, elapsed, search, opt time.Duration
	}{
		{10 * time.Second, 0, 9900 * time.Millisecond, 5 * time.Second}, // half at most
		{10 * time.Second, 7 * time.Second, 9900 * time.Millisecond, 3 * time.Second},
		{10 * time.Second, 9 * time.Second, 9900 * time.Millisecond, time.Second},
		{10 * time.Second, 9950 * time.Millisecond, 9900 * time.Millisecond, 100 * time.Millisecond}, // the search overran: the reserve
		{time.Second, 500 * time.Millisecond, 900 * time.Millisecond, 500 * time.Millisecond},
		{200 * time.Millisecond, 0, 150 * time.Millisecond, 100 * time.Millisecond},
		{0, time.Hour, 0, UnlimitedTime},
	} {
		if got := p.SearchBudget(solver.Budget{Time: c.limit, Nodes: 7}); got != (solver.Budget{Time: c.search, Nodes: 7}) {
			t.Errorf("limit %v: search budget %+v, want %v", c.limit, got, c.search)
		}
		if got := p.Time(c.limit, c.elapsed); got != c.opt {
			t.Errorf("limit %v, search %v: optimizer %v, want %v", c.limit, c.elapsed, got, c.opt)
		}
		if c.limit > 0 && c.search+min(c.opt, c.limit-c.search) > c.limit {
			t.Errorf("limit %v: %v + %v is over the limit", c.limit, c.search, c.opt)
		}
	}
	for _, c := range []struct{ limit, elapsed, want time.Duration }{
		{10 * time.Second, time.Second, 2500 * time.Millisecond},     // a quarter at most
		{10 * time.Second, 6 * time.Second, 1500 * time.Millisecond}, // what a quarter kept for the optimizer leaves
		{10 * time.Second, 7450 * time.Millisecond, 0},               // less than MinTime left: none
		{10 * time.Second, 9 * time.Second, 0},                       // the optimizer takes the rest
		{time.Second, 0, 250 * time.Millisecond},                     // a quarter of a short limit
		{0, time.Hour, UnlimitedTime},                                // no limit
	} {
		if got := p.ResolveTime(c.limit, c.elapsed); got != c.want {
			t.Errorf("limit %v, search %v: A* again %v, want %v", c.limit, c.elapsed, got, c.want)
		}
		if r := p.ResolveTime(c.limit, c.elapsed); c.limit > 0 && c.elapsed+r+p.Time(c.limit, c.elapsed+r) > max(c.limit, c.elapsed+p.Time(c.limit, c.elapsed)) {
			t.Errorf("limit %v, search %v: A* %v and the optimizer go over the limit", c.limit, c.elapsed, r)
		}
	}
	if got := (Policy{Off: true}).SearchBudget(solver.Budget{Time: time.Second}); got.Time != time.Second {
		t.Errorf("off: the search gets %v, want the whole second", got.Time)
	}
	for _, s := range []string{"", "on", "pushes", "moves", "off"} {
		p, err := ParsePolicy(s)
		want := map[string]string{"": "pushes", "on": "pushes"}[s]
		if want == "" {
			want = s
		}
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := ParsePolicy("maybe"); err == nil {
		t.Error("ParsePolicy(maybe): no error")
	}
}

// Greedy's solution of Microban 3 is 15 pushes and 59 moves; Solve
// returns the push-optimal 13 and 41, verified, and says what greedy found.
func TestSolveShortens(t *testing.T) {
	l := testlevel.Resolve(t, "microban:3")[0]
	for _, c := range []struct {
		p             Policy
		pushes, moves int
	}{
		{Policy{}, 13, 41},
		{Policy{Metric: Moves}, 13, 41},
		{Policy{Off: true}, 15, 59},
	} {
		out, err := Solve(context.Background(), search.Greedy{}, l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}}, c.p)
		if err != nil || out.Status != solver.Solved {
			t.Fatalf("%v: %v %v", c.p, out.Status, err)
		}
		rep := verify.Replay(l, out.Moves)
		if !rep.Solved || rep.Pushes != c.pushes || rep.Moves != c.moves || out.Pushes != c.pushes {
			t.Errorf("%v: %d pushes (Pushes %d), %d moves, solved %v; want %d and %d", c.p, rep.Pushes, out.Pushes, rep.Moves, rep.Solved, c.pushes, c.moves)
		}
		if out.Found != (Score{Pushes: 15, Moves: 59}) || out.Optimized == c.p.Off || (!c.p.Off && !out.Complete) {
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
		found, resolved Score
		pushes          int
	}{
		{"microban:5", search.DFS{}, Score{312, 1417}, Score{6, 27}, 6},
		{"microban:3", search.Greedy{}, Score{15, 59}, Score{}, 13},
	} {
		l := testlevel.Resolve(t, c.level)[0]
		out, err := Solve(context.Background(), c.s, l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}}, Policy{})
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
	l, moves := bigDetours(t, 60)
	const limit = time.Second
	// Wall time is no assertion (a loaded machine stretches it): the budget
	// the search is handed is checked exactly, and the wall clock only
	// for a run that ignores its limit altogether, at several times it.
	const slack = 2 * limit
	for _, share := range []float64{0, 1} {
		var got solver.Budget
		start := time.Now()
		out, err := Solve(context.Background(), fake{moves: moves, share: share, budget: &got}, l, solver.Options{Budget: solver.Budget{Time: limit}}, Policy{})
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

// Cancelled as the search returns, Solve gives the solver's own solution
// at once.
func TestSolveCancelled(t *testing.T) {
	l, moves := bigDetours(t, 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got solver.Budget
	start := time.Now()
	out, err := Solve(ctx, fake{moves: moves, budget: &got, cancel: cancel}, l, solver.Options{}, Policy{})
	if err != nil || out.Status != solver.Solved || out.Optimized || out.Pushes != out.Found.Pushes || len(out.Moves) != len(moves) {
		t.Fatalf("%v %v, optimized %v, %d pushes from %+v", out.Status, err, out.Optimized, out.Pushes, out.Found)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancelled, took %v", took)
	}
}
