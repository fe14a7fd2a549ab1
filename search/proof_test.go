package search

import (
	"context"
	"math"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// roomTrap is unsolvable, but not at its start: the two boxes on the left
// lock each other once the first is pushed, and the third box can go into
// the goal room at the bottom right, which its goal-room macro does.
const roomTrap = "##########\n" +
	"#.$.$@   #\n" +
	"###### $ #\n" +
	"     ## ##\n" +
	"     #   #\n" +
	"     # . #\n" +
	"     #####\n"

// TestRoomMacroProvesNothing: a best-first search whose goal-room macro
// moved a box has not searched every position (the macro drops the box's
// other pushes in the room), so running out of positions is "gave up",
// not "no solution"; with the macro off, or in the searches that never
// use it, the same exhausted search is a proof.
func TestRoomMacroProvesNothing(t *testing.T) {
	l := testlevel.Parse(t, roomTrap)
	for _, tc := range []struct {
		name   string
		params map[string]string
		want   solver.Status
	}{
		{"greedy", nil, solver.GaveUp},
		{"wastar-push", nil, solver.GaveUp},
		{"greedy", map[string]string{"rooms": "0"}, solver.NoSolution},
		{"wastar-push", map[string]string{"rooms": "0"}, solver.NoSolution},
		{"astar", nil, solver.NoSolution},
		{"fama", nil, solver.NoSolution},
		{"bfs", nil, solver.NoSolution},
		{"idastar", nil, solver.NoSolution},
		{"dfs", nil, solver.NoSolution},
	} {
		e, ok := solver.Lookup(tc.name)
		if !ok {
			t.Fatalf("%s is not registered", tc.name)
		}
		res, err := solver.Run(context.Background(), e.New(), l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}, Params: tc.params})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != tc.want {
			t.Errorf("%s %v: %v after %d expansions, want %v", tc.name, tc.params, res.Status, res.Stats.Expanded, tc.want)
		}
	}
	// The registered portfolio takes greedy's proof as astar's: on a 2×2
	// block of boxes off goals, which greedy proves dead by its search
	// (the start passes the detectors), greedy alone says no solution.
	block := testlevel.Parse(t, "#########\n#  .  . #\n# @     #\n#   $$  #\n#   $$  #\n#.    $ #\n#  .  . #\n#########")
	e, _ := solver.Lookup("portfolio")
	res, err := solver.Run(context.Background(), e.New(), block, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}, Params: map[string]string{"share": "0"}})
	if err != nil || res.Status != solver.NoSolution || res.Stats.Expanded == 0 {
		t.Errorf("portfolio share=0 on the block: %v after %d expansions (%v), want no solution by search", res.Status, res.Stats.Expanded, err)
	}
}

// TestGreedyWithOddEstimates: only an estimate's false prunes a position.
// An estimate that is NaN (a diverged model), infinite or far beyond the
// queue's range orders the position last; it once pruned NaN and would have
// said "no solution" on a solvable level.
func TestGreedyWithOddEstimates(t *testing.T) {
	l := testlevel.Resolve(t, "microban:1")[0]
	for _, v := range []float64{math.NaN(), math.Inf(1), 1e300, -1} {
		res, err := solver.Run(context.Background(), solverFunc(func(ctx context.Context, opts solver.Options) (solver.Result, error) {
			return GreedyWith(ctx, l, opts, func(*sokoban.Board) int64 { return 0 },
				func(context.Context, *sokoban.Board) (Estimate, error) {
					return func(*sokoban.Position) (float64, bool) { return v, true }, nil
				})
		}), l, solver.Options{Budget: solver.Budget{Time: 10 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solver.Solved {
			t.Errorf("every estimate %g: %v, want solved", v, res.Status)
		}
	}
}

// solverFunc makes a solver of a function of the context and options.
type solverFunc func(ctx context.Context, opts solver.Options) (solver.Result, error)

func (f solverFunc) Solve(ctx context.Context, _ *level.Level, opts solver.Options) (solver.Result, error) {
	return f(ctx, opts)
}
