package generate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"soko/internal/english"
	"soko/level"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

// Sample is what the statistics count of one level.
type Sample struct {
	Status   solver.Status // how the push-optimal check ended
	Optimal  int           // push-optimal solution length; 0 unless Status is Solved
	Expanded int64         // expansions of the Effort solver (at least CheckNodes when it ran out)
	EffortOK bool          // the Effort solver solved the level within CheckNodes
	OffGoals int           // boxes not on a goal at the start
	Floor    int           // floor squares the player's room holds, boxes ignored
}

// Measure measures one level as the generator's checks do: the push-optimal
// A* and the Effort solver, each within cfg.CheckNodes expansions (only
// cfg's Effort and CheckNodes matter). It is how an existing collection is
// set beside generated levels.
func Measure(ctx context.Context, l *level.Level, cfg Config) (Sample, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Sample{}, fmt.Errorf("generate: %w", err)
	}
	return measure(ctx, l, cfg)
}

// measure runs the checks of a full configuration on l.
func measure(ctx context.Context, l *level.Level, cfg Config) (Sample, error) {
	opts := solver.Options{Budget: solver.Budget{Nodes: cfg.CheckNodes}}
	res, err := solver.Run(ctx, search.AStar{}, l, opts)
	if err != nil {
		return Sample{}, err
	}
	if err := ctx.Err(); err != nil {
		return Sample{}, err
	}
	m := Sample{Status: res.Status, Expanded: res.Stats.Expanded, EffortOK: res.Status == solver.Solved, OffGoals: offGoals(l), Floor: floor(l)}
	if res.Status == solver.Solved {
		m.Optimal = res.Pushes
	}
	if cfg.Effort != "astar" {
		e, _ := solver.Lookup(cfg.Effort) // withDefaults checked the name
		res, err := solver.Run(ctx, e.New(), l, opts)
		if err != nil {
			return Sample{}, err
		}
		if err := ctx.Err(); err != nil {
			return Sample{}, err
		}
		m.Expanded, m.EffortOK = res.Stats.Expanded, res.Status == solver.Solved
	}
	return m, nil
}

// Sample gives the statistics of a generated level without measuring it
// again.
func (g Level) Sample() Sample {
	m := Sample{Status: solver.NodeLimit, Optimal: g.Optimal, Expanded: g.Expanded, EffortOK: g.EffortOK, OffGoals: offGoals(g.Level), Floor: floor(g.Level)}
	if g.Optimal > 0 {
		m.Status = solver.Solved
	}
	return m
}

func offGoals(l *level.Level) int {
	n := 0
	for _, row := range l.Rows {
		n += strings.Count(row, string(level.Box))
	}
	return n
}

// floor counts the squares the player can reach when boxes are ignored: the
// room, without the space outside its walls, which is what the board
// indexes (0 for a level no board indexes, which generate never makes).
func floor(l *level.Level) int {
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return 0
	}
	return b.N
}

// Dist is a distribution's summary: the mean and the quartiles (linear
// between order statistics, so that the median of an even count is the
// mean of the middle two).
type Dist struct {
	N                        int
	Mean                     float64
	Min, Q1, Median, Q3, Max float64
}

func distOf(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	slices.Sort(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	q := func(p float64) float64 {
		h := p * float64(len(xs)-1)
		lo := math.Floor(h)
		i := int(lo)
		if i+1 >= len(xs) {
			return xs[i]
		}
		return xs[i] + (h-lo)*(xs[i+1]-xs[i])
	}
	return Dist{N: len(xs), Mean: sum / float64(len(xs)), Min: xs[0], Q1: q(0.25), Median: q(0.5), Q3: q(0.75), Max: xs[len(xs)-1]}
}

// Summary holds the distributions of a set of levels. Pushes and Expanded
// count only the levels the push-optimal check solved.
type Summary struct {
	Levels, Unsolved                  int
	Pushes, OffGoals, Expanded, Floor Dist
}

// Summarize summarizes samples.
func Summarize(samples []Sample) Summary {
	var pushes, off, expanded, fl []float64
	s := Summary{Levels: len(samples)}
	for _, m := range samples {
		off = append(off, float64(m.OffGoals))
		fl = append(fl, float64(m.Floor))
		if m.Status != solver.Solved {
			s.Unsolved++
			continue
		}
		pushes = append(pushes, float64(m.Optimal))
		expanded = append(expanded, float64(m.Expanded))
	}
	s.Pushes, s.OffGoals, s.Expanded, s.Floor = distOf(pushes), distOf(off), distOf(expanded), distOf(fl)
	return s
}

// Format writes the summary as a table under a title line; effort names
// the solver whose expansions were counted.
func (s Summary) Format(title, effort string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", title, english.Count(s.Levels, "level", "levels"))
	if s.Unsolved > 0 {
		fmt.Fprintf(&b, ", %d not solved by the push-optimal check within its budget (left out of pushes and expansions)", s.Unsolved)
	}
	fmt.Fprintf(&b, "\n%-20s %8s %8s %8s %8s %8s %8s\n", "", "mean", "min", "q1", "median", "q3", "max")
	for _, r := range []struct {
		name string
		d    Dist
	}{{"optimal pushes", s.Pushes}, {"boxes off goals", s.OffGoals}, {effort + " expanded", s.Expanded}, {"floor squares", s.Floor}} {
		if r.d.N == 0 {
			fmt.Fprintf(&b, "%-20s %8s\n", r.name, "-")
			continue
		}
		fmt.Fprintf(&b, "%-20s %8.2f %8g %8g %8g %8g %8g\n", r.name, r.d.Mean, r.d.Min, r.d.Q1, r.d.Median, r.d.Q3, r.d.Max)
	}
	return b.String()
}
