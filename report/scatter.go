package report

import (
	"fmt"
	"image/color"
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

// timePair is the per-level times of two solvers a and b on one
// collection at one budget, the data of the scatter plot solver papers
// show beside the cactus plot: a point per level at (time of a, time of
// b), where the diagonal is a tie. A level's time is the median over its
// runs (seeds), a run not solved counting as slower than any; a level
// whose median run was not solved stands on the border, at the time limit
// (without one, at twice the slowest solve). A solved run may take longer
// than the limit (a wall time with the optimizer's last step), and stands
// past the border.
type timePair struct {
	coll   string
	a, b   string
	budget bench.Budget
	kind   Time
	levels []string
	ta, tb []float64 // per level, seconds; border where not solved
	// solvedA and solvedB tell, per level, whether its median run of a
	// (of b) was solved.
	solvedA, solvedB []bool
	border           float64
	// without counts the levels left out because a solved run has no time
	// of the kind (CPU time not measured).
	without int
}

// timePairs are the time pairs of solvers a and b, one per collection, at
// the largest budget both ran there (as pushDiffs chooses).
func (d *dataset) timePairs(a, b string) []timePair {
	var out []timePair
	for _, c := range d.collections {
		if bud, ra, rb, ok := d.sharedRuns(c, a, b); ok {
			out = append(out, d.timePair(c, a, b, bud, ra, rb))
		}
	}
	return out
}

// timePair makes the pair of collection c from the runs of a and b.
func (d *dataset) timePair(c, a, b string, budget bench.Budget, ra, rb []*bench.Record) timePair {
	tp := timePair{coll: c, a: a, b: b, budget: budget, kind: d.time}
	// levelTimes maps each level to the median time of its runs, +Inf for
	// a median run not solved; false for a level with a solved run
	// without a time.
	levelTimes := func(rs []*bench.Record) map[string]float64 {
		byLevel := map[string][]float64{}
		for _, r := range rs {
			x, ok := d.time.of(r)
			switch {
			case !r.Solved():
				x = math.Inf(1)
			case !ok:
				x = math.NaN()
			}
			byLevel[r.Level] = append(byLevel[r.Level], x)
		}
		out := map[string]float64{}
		for id, xs := range byLevel {
			if slices.ContainsFunc(xs, math.IsNaN) {
				out[id] = math.NaN()
				continue
			}
			out[id] = median(xs)
		}
		return out
	}
	xa, xb := levelTimes(ra), levelTimes(rb)
	slowest := 0.0
	for _, id := range d.levels[c] {
		x, okA := xa[id]
		y, okB := xb[id]
		if !okA || !okB {
			continue
		}
		if math.IsNaN(x) || math.IsNaN(y) {
			tp.without++
			continue
		}
		tp.levels = append(tp.levels, id)
		tp.ta, tp.tb = append(tp.ta, x), append(tp.tb, y)
		for _, t := range []float64{x, y} {
			if !math.IsInf(t, 1) {
				slowest = max(slowest, t)
			}
		}
	}
	tp.border = budget.Time.Seconds()
	if tp.border <= 0 {
		tp.border = 2 * max(slowest, 1e-3)
	}
	for i := range tp.ta {
		tp.solvedA = append(tp.solvedA, !math.IsInf(tp.ta[i], 1))
		tp.solvedB = append(tp.solvedB, !math.IsInf(tp.tb[i], 1))
		if !tp.solvedA[i] {
			tp.ta[i] = tp.border
		}
		if !tp.solvedB[i] {
			tp.tb[i] = tp.border
		}
	}
	return tp
}

// faster tells which solver was faster on the i-th level: -1 a, 1 b, 0
// neither (as fast, or neither solved it). A level only one solved is
// that one's.
func (tp *timePair) faster(i int) int {
	sa, sb := tp.solvedA[i], tp.solvedB[i]
	switch {
	case sa && (!sb || tp.ta[i] < tp.tb[i]):
		return -1
	case sb && (!sa || tp.tb[i] < tp.ta[i]):
		return 1
	}
	return 0
}

// scatterPlot draws a time pair on log–log axes of the same range: a
// point per level, the diagonal where both take as long, and the border
// lines at the time limit on which the levels one of them did not solve
// stand (both: the corner). Nil when there is no level to draw.
func scatterPlot(tp timePair) (*plot.Plot, error) {
	if len(tp.levels) == 0 {
		return nil, nil
	}
	lo, hi := tp.border, tp.border
	for i := range tp.ta {
		lo = min(lo, max(tp.ta[i], 1e-6), max(tp.tb[i], 1e-6))
		hi = max(hi, tp.ta[i], tp.tb[i])
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	lo = min(lo, tp.border/10)
	// The axes run a little past the border and the slowest point, so
	// that their points are whole; in log10 of seconds (see
	// log10SecondsTicks).
	min10, max10 := math.Log10(lo), math.Log10(hi)+0.15
	var both, one, neither plotter.XYs
	aFaster, bFaster := 0, 0
	for i := range tp.ta {
		x, y := tp.ta[i], tp.tb[i]
		pt := plotter.XY{X: math.Log10(max(x, 1e-6)), Y: math.Log10(max(y, 1e-6))}
		switch ba, bb := !tp.solvedA[i], !tp.solvedB[i]; {
		case ba && bb:
			neither = append(neither, pt)
		case ba || bb:
			one = append(one, pt)
		default:
			both = append(both, pt)
		}
		switch tp.faster(i) {
		case -1:
			aFaster++
		case 1:
			bFaster++
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s per level: %s (x) against %s (y)\n%s at %s, %s\nfaster: %s on %s, %s on %d",
		capitalize(tp.kind.name()), tp.a, tp.b, tp.coll, tp.budget, english.Count(len(tp.levels), "level", "levels"),
		tp.a, english.Count(aFaster, "level", "levels"), tp.b, bFaster)
	if tp.without > 0 {
		p.Title.Text += fmt.Sprintf("; %s without %s left out", english.Count(tp.without, "level", "levels"), tp.kind.name())
	}
	limit := "the time limit"
	if tp.budget.Time <= 0 {
		limit = "twice the slowest solve"
	}
	p.X.Label.Text = tp.a + ": " + tp.kind.axis() + ", log scale"
	p.Y.Label.Text = tp.b + ": " + tp.kind.axis()
	p.X.Tick.Marker, p.Y.Tick.Marker = log10SecondsTicks{}, log10SecondsTicks{}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = min10, max10, min10, max10
	p.Add(plotter.NewGrid())
	diag, err := plotter.NewLine(plotter.XYs{{X: min10, Y: min10}, {X: max10, Y: max10}})
	if err != nil {
		return nil, err
	}
	diag.Color, diag.Width = color.Gray{Y: 110}, vg.Points(0.7)
	b10 := math.Log10(tp.border)
	edge, err := plotter.NewLine(plotter.XYs{{X: min10, Y: b10}, {X: b10, Y: b10}, {X: b10, Y: min10}})
	if err != nil {
		return nil, err
	}
	edge.Color, edge.Width, edge.Dashes = unsolvedColor, vg.Points(0.7), []vg.Length{vg.Points(3), vg.Points(2)}
	p.Add(diag, edge)
	p.Legend.Add("the diagonal: as fast; below it, "+tp.b+" faster", diag)
	p.Legend.Add("the border: "+limit+", not solved", edge)
	for _, g := range []struct {
		pts   plotter.XYs
		shape draw.GlyphDrawer
		color color.Color
		what  string
	}{
		{both, draw.CircleGlyph{}, barColor, "solved by both"},
		{one, draw.TriangleGlyph{}, unsolvedColor, "solved by one (on the border)"},
		{neither, draw.CrossGlyph{}, unsolvedColor, "by neither (the corner)"},
	} {
		if len(g.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(g.pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: g.color, Radius: vg.Points(1.6), Shape: g.shape}
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("%s: %d", g.what, len(g.pts)), sc)
	}
	return p, nil
}

// onlyShown is how many levels onlyNote names before it counts the rest.
const onlyShown = 30

// onlyNote names, with their times, the levels of tps that one solver of
// the pair alone solved (b's with second set, else a's), or returns ""
// when there are none: what a comparison of two builds gained and lost.
func onlyNote(tps []timePair, second bool) string {
	var name string
	var levels []string
	for _, tp := range tps {
		mine, other, times := tp.solvedA, tp.solvedB, tp.ta
		name = tp.a
		if second {
			mine, other, times = other, mine, tp.tb
			name = tp.b
		}
		for i, id := range tp.levels {
			if mine[i] && !other[i] {
				pos := ""
				if j := strings.LastIndexByte(id, ':'); j >= 0 {
					pos = id[j:]
				}
				levels = append(levels, fmt.Sprintf("%s%s (%s)", tp.coll, pos, fmtSeconds(times[i])))
			}
		}
	}
	if len(levels) == 0 {
		return ""
	}
	more := ""
	if len(levels) > onlyShown {
		more = fmt.Sprintf(", and %d more", len(levels)-onlyShown)
		levels = levels[:onlyShown]
	}
	return fmt.Sprintf("Only %s solved: %s%s.", name, strings.Join(levels, ", "), more)
}

// timePairTable summarises the time pairs, a row per collection: the
// levels each solver was faster on, those only one solved, and the median
// ratio of their times over the levels both solved. Nil without pairs.
func timePairTable(tps []timePair) *table {
	if len(tps) == 0 {
		return nil
	}
	a, b, kind := tps[0].a, tps[0].b, tps[0].kind
	t := &table{title: fmt.Sprintf("### %s per level: %s against %s", capitalize(kind.name()), a, b),
		header: []string{"collection", "budget", "levels", a + " faster", b + " faster", "only " + a + " solved", "only " + b + " solved", "neither",
			a + " ÷ " + b + ": median (both solved)"}}
	for _, tp := range tps {
		var aFaster, bFaster, onlyA, onlyB, neither int
		var ratios []float64
		for i := range tp.levels {
			switch tp.faster(i) {
			case -1:
				aFaster++
			case 1:
				bFaster++
			}
			switch sa, sb := tp.solvedA[i], tp.solvedB[i]; {
			case sa && sb:
				ratios = append(ratios, max(tp.ta[i], 1e-6)/max(tp.tb[i], 1e-6))
			case sa:
				onlyA++
			case sb:
				onlyB++
			default:
				neither++
			}
		}
		t.rows = append(t.rows, []string{tp.coll, tp.budget.String(), strconv.Itoa(len(tp.levels)), strconv.Itoa(aFaster), strconv.Itoa(bFaster),
			strconv.Itoa(onlyA), strconv.Itoa(onlyB), strconv.Itoa(neither), fmtF(median(ratios), 2)})
	}
	t.notes = append(t.notes, "Each collection at the largest budget both ran; a level's time is the median over its seeds, a run not solved "+
		"slower than any, so a level only one solved is that one's faster. With --out-dir the plots scatter-COLLECTION draw each level.")
	for _, second := range []bool{false, true} {
		if note := onlyNote(tps, second); note != "" {
			t.notes = append(t.notes, note)
		}
	}
	without := 0
	for _, tp := range tps {
		without += tp.without
	}
	if without > 0 {
		t.notes = append(t.notes, fmt.Sprintf("Left out: %s with a solved run without %s.", english.Count(without, "level", "levels"), kind.name()))
	}
	return t
}
