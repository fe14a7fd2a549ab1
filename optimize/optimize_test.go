package optimize

import (
	"context"
	"strings"
	"testing"
	"time"

	"soko/internal/testboard"
	"soko/internal/testlevel"
	"soko/level"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
	"soko/verify"
)

func solve(t testing.TB, s solver.Solver, l *level.Level) solver.Result {
	t.Helper()
	res, err := solver.Run(context.Background(), s, l, solver.Options{Budget: solver.Budget{Time: time.Minute}})
	if err != nil || res.Status != solver.Solved {
		t.Fatalf("%s: %v %v", l.Name(), res.Status, err)
	}
	return res
}

// greedyPushes returns l's board and greedy's solution of it as pushes.
func greedyPushes(t testing.TB, l *level.Level) (*sokoban.Board, []sokoban.Push) {
	t.Helper()
	greedy := solve(t, search.Greedy{}, l)
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	pushes, err := b.PushesOf(greedy.Moves)
	if err != nil {
		t.Fatal(err)
	}
	return b, pushes
}

func lurd(t *testing.T, s string) []level.Move {
	t.Helper()
	ms, err := level.ParseLURD(s)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// check optimizes moves and fails the test unless the result is verified
// and no longer than moves in the metric.
func check(t *testing.T, l *level.Level, moves []level.Move, opts Options) Result {
	t.Helper()
	res, err := Optimize(context.Background(), l, moves, opts)
	if err != nil {
		t.Fatalf("%s: %v", l.Name(), err)
	}
	rep := verify.Replay(l, res.Moves)
	if !rep.Solved {
		t.Fatalf("%s: result does not solve the level: %s", l.Name(), rep.Reason)
	}
	got := Score{Pushes: rep.Pushes, Moves: rep.Moves}
	if got != res.After {
		t.Errorf("%s: After %+v, the verifier counts %+v", l.Name(), res.After, got)
	}
	in := verify.Replay(l, moves)
	if before := (Score{Pushes: in.Pushes, Moves: in.Moves}); before != res.Before {
		t.Errorf("%s: Before %+v, the verifier counts %+v", l.Name(), res.Before, before)
	}
	if opts.Metric.Better(res.Before, res.After) {
		t.Errorf("%s: %v: %+v is longer than the given %+v", l.Name(), opts.Metric, res.After, res.Before)
	}
	return res
}

// room is an open room: the box starts between the player and its goal.
const room = `########
#      #
#      #
# @$  .#
#      #
#      #
########
`

func TestCycleIsCut(t *testing.T) {
	l := testlevel.Parse(t, room)
	// Push the box down, walk round, push it back up, then push it home.
	moves := lurd(t, "urDlddrUluRRR")
	for _, m := range []Metric{Pushes, Moves} {
		res := check(t, l, moves, Options{Metric: m, Radii: []int{}})
		if want := (Score{Pushes: 3, Moves: 3}); res.After != want {
			t.Errorf("%v: %+v, want %+v (RRR)", m, res.After, want)
		}
	}
}

func TestWalksAreRerouted(t *testing.T) {
	l := testlevel.Parse(t, room)
	// A detour before the first push, and moves after the level is solved.
	res := check(t, l, lurd(t, "uuddRRRul"), Options{Radii: []int{}})
	if want := (Score{Pushes: 3, Moves: 3}); res.After != want {
		t.Errorf("%+v, want %+v", res.After, want)
	}
}

func TestBoxRunTakesTheShortWay(t *testing.T) {
	l := testlevel.Parse(t, room)
	// One run of pushes of the box: down, right three times, up.
	res := check(t, l, lurd(t, "urDldRRRdrU"), Options{Radii: []int{}})
	if want := (Score{Pushes: 3, Moves: 3}); res.After != want {
		t.Errorf("%+v, want %+v (RRR)", res.After, want)
	}
}

// With as many unlimited radii as the level has boxes, the vicinity is
// every configuration and the search is a plain shortest-path search: it
// must find the optimum in the metric, which BFS over pushes and over
// moves establish independently.
func TestCompleteVicinityIsOptimal(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1,3,8,9,11,12,14") {
		greedy := solve(t, search.Greedy{}, l)
		bfs := solve(t, search.BFS{}, l)
		bfsMoves := solve(t, search.BFSMoves{}, l)
		all := []int{MaxRadius, MaxRadius}
		if res := check(t, l, greedy.Moves, Options{Metric: Pushes, Radii: all}); res.After.Pushes != bfs.Pushes {
			t.Errorf("%s: pushes: %d, bfs %d", l.Name(), res.After.Pushes, bfs.Pushes)
		}
		if res := check(t, l, greedy.Moves, Options{Metric: Moves, Radii: all}); res.After.Moves != len(bfsMoves.Moves) {
			t.Errorf("%s: moves: %d, bfs-moves %d", l.Name(), res.After.Moves, len(bfsMoves.Moves))
		}
	}
}

// From greedy's solutions with the default radii the optimizer never goes
// below the push optimum (which would be a wrong answer) and reaches it on
// these levels.
func TestDefaultVicinityReachesOptimum(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-20") {
		greedy := solve(t, search.Greedy{}, l)
		astar := solve(t, search.AStar{}, l)
		res := check(t, l, greedy.Moves, Options{})
		if res.After.Pushes < astar.Pushes {
			t.Errorf("%s: %d pushes, fewer than the optimum %d", l.Name(), res.After.Pushes, astar.Pushes)
		}
		if res.After.Pushes != astar.Pushes {
			t.Errorf("%s: %d pushes from greedy's %d, the optimum is %d", l.Name(), res.After.Pushes, greedy.Pushes, astar.Pushes)
		}
		if !res.Complete {
			t.Errorf("%s: not complete", l.Name())
		}
	}
}

// longer reports whether a is longer than b in pushes, then moves: the
// tests' own oracle, not the metric's Better that the optimizer uses.
func longer(a, b Score) bool {
	return a.Pushes > b.Pushes || a.Pushes == b.Pushes && a.Moves > b.Moves
}

func TestCancelledReturnsBestSoFar(t *testing.T) {
	l := testlevel.Resolve(t, "microban:10")[0]
	greedy := solve(t, search.Greedy{}, l)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Optimize(ctx, l, greedy.Moves, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete {
		t.Error("complete under a cancelled context")
	}
	if rep := verify.Replay(l, res.Moves); !rep.Solved || longer(res.After, res.Before) || rep.Pushes != res.After.Pushes || rep.Moves != res.After.Moves {
		t.Errorf("cancelled: %+v from %+v, solved %v", res.After, res.Before, rep.Solved)
	}

	// Cancel as the vicinity search begins: the result is the cheap
	// passes' best, exactly.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var atVicinity Score
	res, err = Optimize(ctx, l, greedy.Moves, Options{Progress: func(p Progress) {
		if p.Pass == "vicinity" && atVicinity == (Score{}) {
			atVicinity = p.Score
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.After != atVicinity {
		t.Errorf("cancelled at the vicinity pass with %+v: got %+v, complete %v", atVicinity, res.After, res.Complete)
	}
}

func TestBadInput(t *testing.T) {
	l := testlevel.Parse(t, room)
	if _, err := Optimize(context.Background(), l, lurd(t, "RR"), Options{}); err == nil || !strings.Contains(err.Error(), "does not solve") {
		t.Errorf("unsolved: %v", err)
	}
	if _, err := Optimize(context.Background(), l, lurd(t, "LRRR"), Options{}); err == nil {
		t.Error("illegal step: no error")
	}
	for _, radii := range [][]int{{0}, {-1}, {MaxRadius + 1}, {1, 1, 1, 1, 1}} {
		if _, err := Optimize(context.Background(), l, lurd(t, "RRR"), Options{Radii: radii}); err == nil {
			t.Errorf("radii %v: no error", radii)
		}
	}
}

func TestParseMetric(t *testing.T) {
	for s, want := range map[string]Metric{"pushes": Pushes, "pushes,moves": Pushes, "moves": Moves, "moves, pushes": Moves} {
		if m, err := ParseMetric(s); err != nil || m != want {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	if _, err := ParseMetric("steps"); err == nil {
		t.Error("steps: no error")
	}
}

// BenchmarkOptimize optimizes greedy's solution of a mid-sized Microban
// level from scratch; positions expanded per second is the search's speed.
func BenchmarkOptimize(b *testing.B) {
	l := testlevel.Resolve(b, "microban:139")[0]
	res, err := solver.Run(context.Background(), search.Greedy{}, l, solver.Options{Budget: solver.Budget{Time: time.Minute}})
	if err != nil || res.Status != solver.Solved {
		b.Fatal(res.Status, err)
	}
	var expanded int64
	start := time.Now()
	for b.Loop() {
		out, err := Optimize(context.Background(), l, res.Moves, Options{})
		if err != nil {
			b.Fatal(err)
		}
		expanded += out.Expanded
	}
	b.ReportMetric(float64(expanded)/time.Since(start).Seconds(), "expanded/s")
}

// On a big board with many boxes the optimizer stops at the context's
// deadline with a verified solution no longer than the given one.
func TestBigBoardUnderDeadline(t *testing.T) {
	l, moves := testboard.Detours(t, 200)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	res, err := Optimize(ctx, l, moves, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v → %+v in %v, complete %v", res.Before, res.After, time.Since(start), res.Complete)
	if rep := verify.Replay(l, res.Moves); !rep.Solved || longer(res.After, res.Before) || rep.Pushes != res.After.Pushes || rep.Moves != res.After.Moves {
		t.Errorf("%+v from %+v, solved %v", res.After, res.Before, rep.Solved)
	}
}

// With little memory the vicinity search splits its stretches and still
// finds what the full search finds on a level where the whole-solution
// search does not fit.
func TestSmallMemorySplitsStretches(t *testing.T) {
	l := testlevel.Resolve(t, "microban:139")[0]
	greedy := solve(t, search.Greedy{}, l)
	cheap := check(t, l, greedy.Moves, Options{Radii: []int{}})
	res := check(t, l, greedy.Moves, Options{Memory: 1 << 20})
	t.Logf("greedy %d pushes, cheap passes %+v, 1 MiB vicinity %+v", greedy.Pushes, cheap.After, res.After)
	if res.After.Pushes >= cheap.After.Pushes {
		t.Errorf("1 MiB: %+v, no better than the cheap passes' %+v", res.After, cheap.After)
	}
}

// A level solved from the start has the empty solution; steps after it
// are cut.
func TestSolvedAtStart(t *testing.T) {
	l := testlevel.Parse(t, "#####\n#@ *#\n#####\n")
	for _, moves := range [][]level.Move{nil, lurd(t, "rl")} {
		res := check(t, l, moves, Options{})
		if res.After != (Score{}) || len(res.Moves) != 0 {
			t.Errorf("%v: %+v %v", moves, res.After, res.Moves)
		}
	}
}

// A memory budget too small for any search: the result says so, rather
// than complete.
func TestMemoryLimited(t *testing.T) {
	l := testlevel.Resolve(t, "microban:10")[0]
	greedy := solve(t, search.Greedy{}, l)
	res, err := Optimize(context.Background(), l, greedy.Moves, Options{Memory: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.MemoryLimited || res.Complete {
		t.Errorf("1 byte of memory: memory limited %v, complete %v", res.MemoryLimited, res.Complete)
	}
	res, err = Optimize(context.Background(), l, greedy.Moves, Options{})
	if err != nil || res.MemoryLimited || !res.Complete {
		t.Errorf("default memory: memory limited %v, complete %v, %v", res.MemoryLimited, res.Complete, err)
	}
}

// Under a deadline the first turns bound each search to a share of the
// time left; the last turn has none, so with time enough the result is
// the one without a deadline: the optimum on these levels, complete.
func TestSharesKeepTheOptimum(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-12") {
		greedy := solve(t, search.Greedy{}, l)
		astar := solve(t, search.AStar{}, l)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := Optimize(ctx, l, greedy.Moves, Options{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		free := check(t, l, greedy.Moves, Options{})
		if res.After.Pushes != astar.Pushes || !res.Complete {
			t.Errorf("%s: %+v (complete %v) under a deadline, the optimum is %d pushes", l.Name(), res.After, res.Complete, astar.Pushes)
		}
		if res.After.Pushes != free.After.Pushes {
			t.Errorf("%s: %+v under a deadline, %+v without", l.Name(), res.After, free.After)
		}
	}
}

// A search that takes more than its share of the time is cut short (slow)
// and finds nothing; the vicinity turns that follow still reach the
// optimum.
func TestSlowSearchIsCutAndRetried(t *testing.T) {
	l := testlevel.Resolve(t, "microban:42")[0]
	astar := solve(t, search.AStar{}, l)
	b, pushes := greedyPushes(t, l)
	if len(pushes) <= astar.Pushes {
		t.Fatalf("greedy's solution has %d pushes, the optimum %d: nothing to find", len(pushes), astar.Pushes)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o := newOptimizer(ctx, b, Pushes, DefaultRadii, DefaultMemory, nil)
	o.best, o.score = pushes, o.scoreOf(pushes)
	o.share = 1 << 40 // each search's share: under a nanosecond
	cut := false
	for i := 0; i+minStretch <= len(o.best); i++ {
		o.improve(i, len(o.best), o.radii)
		cut = cut || o.slow
	}
	if !cut {
		t.Errorf("no search was cut short with a share of 2^-40 of the time left")
	}
	o.vicinity()
	if o.score.Pushes != astar.Pushes {
		t.Errorf("%d pushes after the turns, the optimum is %d", o.score.Pushes, astar.Pushes)
	}
}

// A stretch remembered as searched to its end is skipped, and its skip
// says nothing of how the search before it ended: a search cut at its
// share just before must not make the turn halve its stretches again and
// again (which once ended the turns early, the result "complete" where a
// full turn found more).
func TestRememberedStretchLeavesNoFlags(t *testing.T) {
	l := testlevel.Resolve(t, "microban:9")[0]
	b, pushes := greedyPushes(t, l)
	o := newOptimizer(context.Background(), b, Pushes, DefaultRadii, DefaultMemory, nil)
	o.best, o.score = pushes, o.scoreOf(pushes)
	i, j := -1, 0
	for k := 0; k+minStretch <= len(o.best); k++ {
		if !o.improve(k, k+minStretch, o.radii) && !o.slow && !o.outgrown {
			i, j = k, k+minStretch // searched to its end without a gain: remembered
			break
		}
	}
	if i < 0 {
		t.Fatal("every stretch gained: no remembered one to skip")
	}
	searches := o.searches
	o.slow, o.outgrown = true, true // as a search cut short would leave them
	if o.improve(i, j, o.radii) || o.searches != searches {
		t.Fatalf("stretch %d..%d searched again", i, j)
	}
	if o.slow || o.outgrown {
		t.Errorf("a skipped stretch reports slow %v, outgrown %v", o.slow, o.outgrown)
	}
}
