package report

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"soko/bench"
	"soko/internal/english"
)

// pushDiff is the per-level push-count difference a − b on one collection
// at one budget, over the levels both solve (000 Figs. 6.1/6.2), with the
// ratio of their solution lengths in moves (002 §V.B.4).
//
// The solutions compared are the solvers' own (found_pushes and
// found_moves, where the optimizer ran; pushes and moves where it did
// not), unless Options.Optimized asks for the optimized ones: the
// optimizer shortens both solvers' solutions to nearly the same lengths,
// and a difference of those says little of the solvers.
type pushDiff struct {
	coll       string
	a, b       string
	solutions  string // which solutions, in words: see dataset.solutionsCompared
	optimized  bool   // the optimized solutions (Options.Optimized)
	budget     bench.Budget
	levels     []string // those both solve
	all        []string // the collection's levels in the results
	diffs      []float64
	pushesB    []float64 // b's pushes
	moveRatios []float64 // moves a ÷ moves b
}

// comparePair picks the two solvers whose push counts are compared.
func (d *dataset) comparePair(opt [2]string) (string, string, bool) {
	has := func(s string) bool { return slices.Contains(d.solvers, s) }
	if opt[0] != "" && opt[1] != "" {
		return opt[0], opt[1], has(opt[0]) && has(opt[1])
	}
	for _, p := range bench.Presets {
		if a, b := p.Compare[0], p.Compare[1]; a != "" && has(a) && has(b) {
			return a, b, true
		}
	}
	if has("schokoban") && has("vanillaban") {
		return "schokoban", "vanillaban", true
	}
	// The two solvers that solved the most runs (ties by name); none when
	// fewer than two solved anything.
	solved := map[string]int{}
	for i := range d.recs {
		if d.recs[i].Solved() {
			solved[d.recs[i].SolverLabel()]++
		}
	}
	var ss []string
	for _, s := range d.solvers {
		if solved[s] > 0 {
			ss = append(ss, s)
		}
	}
	if len(ss) < 2 {
		return "", "", false
	}
	slices.SortStableFunc(ss, func(a, b string) int { return solved[b] - solved[a] })
	return ss[0], ss[1], true
}

// pushDiffs computes, per collection, the difference at the largest budget
// that both solvers ran.
func (d *dataset) pushDiffs(a, b string) []pushDiff {
	var out []pushDiff
	for _, c := range d.collections {
		bud, ra, rb, ok := d.sharedRuns(c, a, b)
		if !ok {
			continue
		}
		pushes, moves := foundPushes, foundMoves
		if d.optimized {
			pushes, moves = finalPushes, finalMoves
		}
		pa, pb := meanSolved(ra, pushes), meanSolved(rb, pushes)
		ma, mb := meanSolved(ra, moves), meanSolved(rb, moves)
		pd := pushDiff{coll: c, a: a, b: b, solutions: d.solutionsCompared(append(slices.Clone(ra), rb...)), optimized: d.optimized, budget: bud, all: d.levels[c]}
		for _, id := range d.levels[c] {
			x, okA := pa[id]
			y, okB := pb[id]
			if okA && okB {
				pd.levels = append(pd.levels, id)
				pd.diffs = append(pd.diffs, x-y)
				pd.pushesB = append(pd.pushesB, y)
				pd.moveRatios = append(pd.moveRatios, ma[id]/mb[id])
			}
		}
		out = append(out, pd)
	}
	return out
}

// finalPushes and finalMoves are a run's solution as the record's
// pushes and moves hold it: optimized where the optimizer ran.
func finalPushes(r *bench.Record) float64 { return float64(r.Pushes) }

func finalMoves(r *bench.Record) float64 { return float64(r.Moves) }

// foundPushes and foundMoves are the solver's own solution: found_pushes
// and found_moves where the optimizer ran (a solution of a level to solve
// has a push), pushes and moves where it did not.
func foundPushes(r *bench.Record) float64 {
	if r.FoundPushes > 0 {
		return float64(r.FoundPushes)
	}
	return float64(r.Pushes)
}

func foundMoves(r *bench.Record) float64 {
	if r.FoundPushes > 0 {
		return float64(r.FoundMoves)
	}
	return float64(r.Moves)
}

// solutionsCompared says which solutions of runs rs a push-count
// comparison compares, for its title: the solvers' own or the optimized
// ones where the optimizer ran on any, else the solvers' (no optimizer
// ran, and the two are the same).
func (d *dataset) solutionsCompared(rs []*bench.Record) string {
	if !slices.ContainsFunc(rs, func(r *bench.Record) bool { return r.Solved() && r.FoundPushes > 0 }) {
		return "the solvers' solutions (no optimizer ran)"
	}
	if d.optimized {
		return "the optimized solutions (after soko's optimizer)"
	}
	return "the solvers' own solutions (before the optimizer)"
}

// meanSolved maps each solved level to the mean of f over its solved runs
// (the seeds that solved it).
func meanSolved(rs []*bench.Record, f func(*bench.Record) float64) map[string]float64 {
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range rs {
		if r.Solved() {
			sum[r.Level] += f(r)
			n[r.Level]++
		}
	}
	for k := range sum {
		sum[k] /= float64(n[k])
	}
	return sum
}

func (d *dataset) pushDiffTable(pds []pushDiff) *table {
	if len(pds) == 0 {
		return nil
	}
	t := &table{title: fmt.Sprintf("### Push-count difference %s − %s per level (%s) and moves ratio (%s)",
		pds[0].a, pds[0].b, cite("000", "Figures 6.1 and 6.2"), cite("002", "section V.B.4")),
		header: []string{"collection", "budget", "levels both solve", "mean", "median", "shorter", "equal", "longer", "mean pushes " + pds[0].b,
			"moves " + pds[0].a + " ÷ " + pds[0].b + ": mean (range)"}}
	for _, pd := range pds {
		shorter, equal, longer := 0, 0, 0
		for _, x := range pd.diffs {
			switch {
			case x < 0:
				shorter++
			case x > 0:
				longer++
			default:
				equal++
			}
		}
		t.rows = append(t.rows, []string{pd.coll, pd.budget.String(), strconv.Itoa(len(pd.diffs)), fmtF(mean(pd.diffs), 2), fmtF(median(pd.diffs), 1),
			strconv.Itoa(shorter), strconv.Itoa(equal), strconv.Itoa(longer), fmtF(mean(pd.pushesB), 1), ratioSummary(pd.moveRatios)})
		if a, _, _ := strings.Cut(pd.a, "("); a == "schokoban" && strings.HasPrefix(pd.b, "vanillaban") {
			if th := thesisPushDiff(pd.coll); len(th) > 0 {
				var xs []float64
				for _, v := range th {
					xs = append(xs, float64(v))
				}
				sh, eq, lo := 0, 0, 0
				for _, x := range xs {
					switch {
					case x < 0:
						sh++
					case x > 0:
						lo++
					default:
						eq++
					}
				}
				t.rows = append(t.rows, []string{pd.coll + " (thesis)", "i=100000", strconv.Itoa(len(xs)), fmtF(mean(xs), 2), fmtF(median(xs), 1),
					strconv.Itoa(sh), strconv.Itoa(eq), strconv.Itoa(lo), "", ""})
			}
		}
	}
	t.notes = append(t.notes, fmt.Sprintf("shorter: %s needs fewer pushes than %s. Each collection at the largest budget both ran; "+
		"per level, pushes and moves are means over the seeds that solved it.", pds[0].a, pds[0].b))
	var what []string
	for _, pd := range pds {
		if !slices.Contains(what, pd.solutions) {
			what = append(what, pd.solutions)
		}
	}
	t.notes = append(t.notes, "Compared: "+strings.Join(what, "; ")+". soko report compares the solvers' own solutions; --optimized compares the optimized ones.")
	return t
}

func pushDiffCSV(w io.Writer, pds []pushDiff) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"collection", "budget", "level", "solver_a", "solver_b", "pushes_a_minus_b", "moves_a_over_b", "solutions"})
	for _, pd := range pds {
		solutions := "found" // the solvers' own: found_pushes, or pushes where no optimizer ran
		if pd.optimized {
			solutions = "optimized"
		}
		for i, id := range pd.levels {
			cw.Write([]string{pd.coll, pd.budget.String(), id, pd.a, pd.b, formatCount(pd.diffs[i]), fmtF(pd.moveRatios[i], 4), solutions})
		}
	}
	cw.Flush()
	return cw.Error()
}

// pushDiffPlot draws one bar per level at the level's number: pushes of a
// minus pushes of b, for the levels both solve, below zero where a's
// solution is shorter. The x axis spans the collection's levels in the
// results (those both solve when the collection's are not known), with
// ticks only at levels there are; the y axis spans the differences.
func pushDiffPlot(pd pushDiff) (*plot.Plot, error) {
	if len(pd.diffs) == 0 {
		return nil, nil
	}
	span := pd.all
	if len(span) == 0 {
		span = pd.levels
	}
	numbered := true
	exists := map[int]bool{}
	minN, maxN := math.MaxInt, 0
	for _, id := range append(slices.Clone(span), pd.levels...) {
		_, n := bench.SplitLevelID(id)
		if n <= 0 {
			numbered = false
		}
		exists[n] = true
		minN, maxN = min(minN, n), max(maxN, n)
	}
	var vals plotter.Values
	xmin := 0.0
	// pos is where the i-th level both solve stands on the x axis.
	pos := func(i int) float64 { return float64(i) }
	if numbered {
		vals = make(plotter.Values, maxN-minN+1)
		for i, id := range pd.levels {
			_, n := bench.SplitLevelID(id)
			vals[n-minN] = pd.diffs[i]
		}
		xmin = float64(minN)
		pos = func(i int) float64 { _, n := bench.SplitLevelID(pd.levels[i]); return float64(n) }
	} else {
		vals = append(vals, pd.diffs...)
	}
	// About 70% of each level's share of the width, between half a point
	// and 12 points.
	bw := max(vg.Points(0.5), min((plotWidth-vg.Points(40))/vg.Length(len(vals))*0.7, vg.Points(12)))
	bar, err := newBars(vals, bw)
	if err != nil {
		return nil, err
	}
	bar.XMin = xmin
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Pushes of %s minus pushes of %s, per level\n%s\nbelow zero: %s's solution is shorter (shorter is better)\n%s at %s: mean %s over the %s both solve",
		pd.a, pd.b, pd.solutions, pd.a, pd.coll, pd.budget, fmtF(mean(pd.diffs), 2), english.Count(len(pd.diffs), "level", "levels"))
	if numbered {
		p.X.Label.Text = "level"
		p.X.Tick.Marker = levelTicks(exists)
	} else {
		p.X.Label.Text = "level (in collection order, solved by both)"
		p.X.Tick.Marker = linearTicks{integer: true}
	}
	p.Y.Label.Text = "pushes " + pd.a + " − " + pd.b
	p.Y.Tick.Marker = linearTicks{integer: true}
	p.Add(plotter.NewGrid(), bar)
	// The levels both solve in as many pushes: a dot on the zero line.
	var equal plotter.XYs
	for i, x := range pd.diffs {
		if x == 0 {
			equal = append(equal, plotter.XY{X: pos(i), Y: 0})
		}
	}
	if len(equal) > 0 {
		dots, err := plotter.NewScatter(equal)
		if err != nil {
			return nil, err
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 90}, Radius: vg.Points(1.2), Shape: draw.CircleGlyph{}}
		p.Add(dots)
		what := "dots"
		if len(equal) == 1 {
			what = "a dot"
		}
		p.Title.Text += fmt.Sprintf("\n%s solved in as many pushes (%s)", english.Count(len(equal), "level", "levels"), what)
	}
	lo, hi := min(0, slices.Min(pd.diffs)), max(0, slices.Max(pd.diffs))
	pad := max((hi-lo)*0.05, 0.5)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
	p.X.Min, p.X.Max = xmin-0.5, xmin+float64(len(vals))-0.5
	return p, nil
}
