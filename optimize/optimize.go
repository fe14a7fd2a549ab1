// Package optimize shortens a given Sokoban solution. It
// takes any solution that the verifier accepts and returns one that is
// verified and never longer in the chosen metric. The passes, cheapest first:
//
//   - Re-routing: the solution is read as its sequence of pushes and the
//     player walks between them are replaced by shortest walks (breadth-first
//     search, sokoban.Board.Expand); moves after the level is solved go.
//   - Cycle cuts: where the solution comes back to a position it was in
//     before (the same boxes, the player in the same region), the pushes in
//     between are cut, when that does not cost moves the metric counts.
//   - Box runs: each run of consecutive pushes of one box is replaced by a
//     cheapest way, in the metric, from the position before the run to the
//     boxes after it, moving one box at a time away from the run's
//     positions: a vicinity search with one box and no radius (below). For
//     the moves metric this is the move-optimal pass over the push sequence.
//   - Vicinity search (Sébastien Gouëzel's idea, as in the YASS and JSoko
//     optimizers; the JSoko help page "How the optimizer works" describes
//     it): the box configurations of a stretch of the solution, together
//     with every configuration that differs from one of them in at most k
//     boxes, each within its own radius of the square it stands on there
//     (by default k = 2 with radii 20 and 10: the 20 and the 10 nearest
//     squares), form a set; a shortest path in the metric from the stretch's
//     first position to its last boxes through positions whose boxes are in
//     the set replaces the stretch when it is shorter. The original stretch
//     lies in the set, so the result is never longer. Stretches start at 32
//     pushes, slide along the solution, and double in length each time a
//     turn over the whole solution brings no gain, up to the whole solution;
//     one whose search outgrows its memory is halved. Under a deadline, on
//     a solution of shareFrom pushes or more, each search first gets only
//     a sixteenth of the optimizer's time, so that one huge vicinity does
//     not take all of it while cheap cuts elsewhere wait; a search that
//     runs out of its share is dropped and its stretch halved, and the
//     turns start again with twice the share until the last, which has
//     none. A stretch searched to its end without a gain is remembered
//     (by its start position and pushes) and not searched again.
//
// A stretch's search is A* over positions with the player's exact square,
// bounded by the minimum-cost matching of the boxes to the squares of the
// stretch's last configuration, each pair costing a lone box's pushes
// (heuristic.PushMatching); positions that cannot lead to a path shorter
// than the stretch are never stored. Most stretches are proved to have no
// shorter path at or near their first position. Its end
// is the stretch's last box configuration with the player anywhere from
// which they can walk to the next push, that walk counted, so the rest of
// the solution stays as it is. The vicinity set is never enumerated: a
// configuration reached by the search is tested against the stretch's
// configurations in one sweep, since consecutive ones differ by one push,
// the number of boxes off each of them is updated in constant time per
// configuration (stretch.admit).
//
// In the pushes metric the turns run first with a search for fewer pushes
// alone (searchPushes): the same vicinity and bound, but a position is its
// boxes and the player's region, and a path costs its pushes, so it
// stores fewer positions. Each path
// it finds is searched again over exact squares with smaller radii for
// fewer moves at as many pushes. Under a deadline these turns take at most
// pushShare of the time left; then the turns run again over exact squares
// with the rest.
//
// Package solve runs a solver and hands its solution to Optimize for a
// time of its own after the search (solve.AutoTime by default): soko
// solve, soko bench and the web API go through it ("short by default").
//
// Costs are compared lexicographically: the metric first, the other count
// second, so an optimisation for pushes also shortens moves where that is
// free. Every search step honours the context; when it is cancelled the best
// solution found so far is returned.
package optimize

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"soko/level"
	"soko/sokoban"
	"soko/verify"
)

// Metric is what the optimizer shortens first; the other count breaks ties.
type Metric uint8

// The metrics.
const (
	Pushes Metric = iota // fewest pushes, then fewest moves
	Moves                // fewest moves, then fewest pushes
)

func (m Metric) String() string {
	if m == Moves {
		return "moves,pushes"
	}
	return "pushes,moves"
}

// ParseMetric reads a metric: "pushes" or "pushes,moves" (pushes first,
// then moves), "moves" or "moves,pushes".
func ParseMetric(s string) (Metric, error) {
	switch strings.ReplaceAll(s, " ", "") {
	case "pushes", "pushes,moves":
		return Pushes, nil
	case "moves", "moves,pushes":
		return Moves, nil
	}
	return 0, fmt.Errorf("unknown metric %q: want pushes, moves, pushes,moves or moves,pushes", s)
}

// DefaultRadii are the vicinity radii: up to two boxes may stand off the
// solution's squares, one among the 20 squares nearest its square there,
// the other among the 10 nearest.
var DefaultRadii = []int{20, 10}

// MaxRadii is the most boxes a vicinity search lets off the solution at once.
const MaxRadii = 4

// DefaultMemory is the memory one stretch's search may hold by default.
const DefaultMemory = 256 << 20

// Options configure Optimize.
type Options struct {
	Metric Metric
	// Radii are the vicinity sizes, one per box that may stand off the
	// solution at once (at most MaxRadii, each at least 1); nil means
	// DefaultRadii, an empty non-nil slice skips the vicinity search.
	Radii []int
	// Memory bounds the tables of one search, in bytes; 0 means
	// DefaultMemory. A stretch whose search needs more is split.
	Memory int64
	// Progress, when set, is called on the caller's goroutine each time
	// the solution gets shorter, and when a pass begins.
	Progress func(Progress)
}

// Score is the length of a solution.
type Score struct {
	Pushes int `json:"pushes"`
	Moves  int `json:"moves"`
}

// Progress reports the current best solution's length and the pass running.
type Progress struct {
	Score
	Pass string // "cycles", "runs", "vicinity"
}

// Result is what Optimize returns.
type Result struct {
	Moves    []level.Move // the optimized solution, verified
	Before   Score        // the given solution, as the verifier counts it
	After    Score        // the returned solution
	Complete bool         // every pass ran to its end; false when ctx stopped it or memory limited it
	// MemoryLimited says a stretch of the shortest length was left
	// unsearched because its search outgrew Options.Memory.
	MemoryLimited bool
	Searches      int   // stretch searches run
	Expanded      int64 // positions expanded by them
}

// Better reports whether a is shorter than b in metric m (lexicographic:
// the metric, then the other count).
func (m Metric) Better(a, b Score) bool {
	return m.cost(a) < m.cost(b)
}

// costScale separates the primary count from the secondary one in a single
// int64 cost: solutions are at most level.MaxSolutionSteps long, far below.
const costScale = 1 << 32

// score is the inverse of cost.
func (m Metric) score(c int64) Score {
	hi, lo := int(c/costScale), int(c%costScale)
	if m == Moves {
		return Score{Pushes: lo, Moves: hi}
	}
	return Score{Pushes: hi, Moves: lo}
}

func (m Metric) cost(s Score) int64 {
	if m == Moves {
		return int64(s.Moves)*costScale + int64(s.Pushes)
	}
	return int64(s.Pushes)*costScale + int64(s.Moves)
}

// Optimize returns a solution of l no longer than moves in opts.Metric,
// replayed by the verifier. moves must solve l. When ctx is cancelled or
// its deadline passes, the best solution found so far is returned with
// Complete false and no error.
func Optimize(ctx context.Context, l *level.Level, moves []level.Move, opts Options) (Result, error) {
	radii, err := checkRadii(opts.Radii)
	if err != nil {
		return Result{}, err
	}
	rep := verify.Replay(l, moves)
	if !rep.Solved {
		why := rep.Reason
		if why == "" {
			why = "the boxes are not all on goals at the end"
		}
		return Result{}, fmt.Errorf("%s: the solution does not solve the level: %s", l.Name(), why)
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return Result{}, err
	}
	pushes, err := b.PushesOf(moves)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", l.Name(), err)
	}
	memory := opts.Memory
	if memory <= 0 {
		memory = DefaultMemory
	}
	o := newOptimizer(ctx, b, opts.Metric, radii, memory, opts.Progress)
	o.best = pushes
	o.score = o.scoreOf(pushes)
	res := Result{Before: Score{Pushes: rep.Pushes, Moves: rep.Moves}}
	o.run()
	res.MemoryLimited = o.limited
	res.Complete = ctx.Err() == nil && !o.stopped && !o.limited
	res.Searches, res.Expanded = o.searches, o.expanded

	out, err := b.Expand(o.best)
	if err != nil {
		return Result{}, fmt.Errorf("optimizer bug: %w", err)
	}
	check := verify.Replay(l, out)
	after := Score{Pushes: check.Pushes, Moves: check.Moves}
	if !check.Solved || opts.Metric.Better(res.Before, after) {
		return Result{}, fmt.Errorf("%s: optimizer bug: the result (%d pushes, %d moves, solved %v) is not a solution at most as long as the given one (%d pushes, %d moves)",
			l.Name(), after.Pushes, after.Moves, check.Solved, res.Before.Pushes, res.Before.Moves)
	}
	if after != o.score {
		return Result{}, fmt.Errorf("%s: optimizer bug: the result has %d pushes and %d moves, counted as %d and %d",
			l.Name(), after.Pushes, after.Moves, o.score.Pushes, o.score.Moves)
	}
	res.Moves, res.After = out, after
	return res, nil
}

func checkRadii(radii []int) ([]int, error) {
	if radii == nil {
		radii = DefaultRadii
	}
	if len(radii) > MaxRadii {
		return nil, fmt.Errorf("%d vicinity radii: at most %d boxes may stand off the solution at once", len(radii), MaxRadii)
	}
	for _, r := range radii {
		if r < 1 || r > MaxRadius {
			return nil, fmt.Errorf("vicinity radius %d: want 1 to %d squares", r, MaxRadius)
		}
	}
	sorted := slices.Clone(radii)
	slices.Sort(sorted)
	slices.Reverse(sorted)
	return sorted, nil
}

// MaxRadius is the largest vicinity radius, in squares.
const MaxRadius = 1000
