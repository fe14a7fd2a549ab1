package report

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"soko/bench"
	"soko/solver"
)

// A parameter sweep is the shape of 001 Figs. 4–7: one solver run with
// several values of one numeric parameter (α, W, γ, ε), everything else
// equal, and the run time at each value. The report finds every sweep in
// the results by itself: runs of one solver at one budget whose parameters
// differ in exactly one numeric parameter, with at least two values of it.
// A run that does not set the parameter has the solver's default.
//
// The time of a run is the report's time (Options.Time: the solve time
// by default), and an unsolved run counts at its time limit (or its time
// without one), so a mean is a lower bound when runs went unsolved; the
// tables say how many. A run without a time of the kind (CPU time not
// measured) is left out of the mean.

// sweep is one solver's runs at one budget over the values of one parameter.
type sweep struct {
	solver string // the solver's name with the parameters held fixed
	param  string
	budget bench.Budget
	points []sweepPoint // in increasing order of value
}

type sweepPoint struct {
	value        float64
	text         string // the value as written
	runs, solved int
	mean, ci     float64 // mean time and the half-width of its 95% confidence interval
}

// sweeps returns the parameter sweeps in the results, ordered by solver,
// parameter and budget.
func (d *dataset) sweeps() []sweep {
	type sweepKey struct{ solver, param, rest, budget string }
	groups := map[sweepKey]map[string][]*bench.Record{} // → value → runs
	budgets := map[string]bench.Budget{}
	for i := range d.recs {
		r := &d.recs[i]
		if r.External != "" || r.Status == bench.StatusError {
			continue
		}
		e, ok := solver.Lookup(r.Solver)
		if !ok {
			continue
		}
		params := map[string]string{}
		for _, p := range e.Params {
			if p.Kind == solver.Int || p.Kind == solver.Real {
				params[p.Name] = p.Default
			}
		}
		maps.Copy(params, r.Params)
		for _, name := range slices.Sorted(maps.Keys(params)) {
			if p, ok := e.Param(name); !ok || (p.Kind != solver.Int && p.Kind != solver.Real) {
				continue
			}
			rest := maps.Clone(r.Params)
			delete(rest, name)
			others := *r
			others.Params = rest
			k := sweepKey{others.SolverLabel(), name, fmt.Sprint(rest), r.Budget.String()}
			if groups[k] == nil {
				groups[k] = map[string][]*bench.Record{}
			}
			groups[k][params[name]] = append(groups[k][params[name]], r)
			budgets[k.budget] = r.Budget
		}
	}
	var out []sweep
	for k, byValue := range groups {
		if len(byValue) < 2 {
			continue
		}
		sw := sweep{solver: k.solver, param: k.param, budget: budgets[k.budget]}
		for text, runs := range byValue {
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				continue
			}
			sw.points = append(sw.points, sweepPointOf(v, text, runs, d.time))
		}
		if len(sw.points) < 2 {
			continue
		}
		slices.SortFunc(sw.points, func(a, b sweepPoint) int { return cmp.Compare(a.value, b.value) })
		out = append(out, sw)
	}
	slices.SortFunc(out, func(a, b sweep) int {
		if c := strings.Compare(a.solver, b.solver); c != 0 {
			return c
		}
		if c := strings.Compare(a.param, b.param); c != 0 {
			return c
		}
		return a.budget.Compare(b.budget)
	})
	return out
}

// sweepPointOf summarises the runs at one value, timed by kind tk.
func sweepPointOf(v float64, text string, runs []*bench.Record, tk Time) sweepPoint {
	pt := sweepPoint{value: v, text: text, runs: len(runs)}
	var ts []float64
	for _, r := range runs {
		x, ok := tk.of(r)
		if r.Solved() {
			pt.solved++
		} else if r.Budget.Time > 0 {
			x, ok = r.Budget.Time.Seconds(), true
		}
		if ok {
			ts = append(ts, x)
		}
	}
	pt.mean = mean(ts)
	if n := len(ts); n > 1 {
		ss := 0.0
		for _, t := range ts {
			ss += (t - pt.mean) * (t - pt.mean)
		}
		pt.ci = 1.96 * math.Sqrt(ss/float64(n-1)/float64(n))
	}
	return pt
}

// sweepTables writes one table per sweep.
func (d *dataset) sweepTables() []*table {
	var ts []*table
	for _, sw := range d.sweeps() {
		t := &table{
			title:  fmt.Sprintf("### Parameter sweep: %s over %s at %s (%s)", sw.solver, sw.param, sw.budget, cite("001", "Figures 4 to 7")),
			header: []string{sw.param, "runs", "solved", "mean " + d.time.name(), "95% CI"},
			notes:  []string{"Unsolved runs count at the time limit, so a mean with unsolved runs is a lower bound."},
		}
		for _, pt := range sw.points {
			t.rows = append(t.rows, []string{pt.text, strconv.Itoa(pt.runs), strconv.Itoa(pt.solved), fmtSeconds(pt.mean), "±" + fmtSeconds(pt.ci)})
		}
		ts = append(ts, t)
	}
	return ts
}

func byValue(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) }

// sweepPlots draws, per solver and parameter, the mean time against the
// parameter's value with 95% confidence bars, a line per budget.
func (d *dataset) sweepPlots(files *reportFiles) error {
	type pk struct{ solver, param string }
	byPlot := map[pk][]sweep{}
	var order []pk
	for _, sw := range d.sweeps() {
		k := pk{sw.solver, sw.param}
		if byPlot[k] == nil {
			order = append(order, k)
		}
		byPlot[k] = append(byPlot[k], sw)
	}
	for _, k := range order {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("Impact of %s on %s\nmean %s per run, unsolved runs at the limit; bars: 95%% CI", k.param, k.solver, d.time.name())
		p.X.Label.Text = k.param
		p.Y.Label.Text = "mean " + d.time.name()
		p.Y.Min = 0
		p.Y.Tick.Marker = secondsTicks{}
		var ticks []plot.Tick // a labelled tick at every value swept
		for i, sw := range byPlot[k] {
			for _, pt := range sw.points {
				if !slices.ContainsFunc(ticks, func(t plot.Tick) bool { return t.Value == pt.value }) {
					ticks = append(ticks, plot.Tick{Value: pt.value, Label: pt.text})
				}
			}
			pts := make(plotter.XYs, len(sw.points))
			errs := make(plotter.YErrors, len(sw.points))
			solved, runs := 0, 0
			for j, pt := range sw.points {
				pts[j] = plotter.XY{X: pt.value, Y: pt.mean}
				errs[j].Low, errs[j].High = pt.ci, pt.ci
				solved += pt.solved
				runs += pt.runs
			}
			line, points, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
			points.Shape = plotutil.Shape(i)
			bars, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{pts, errs})
			if err != nil {
				return err
			}
			bars.Color = plotutil.Color(i)
			p.Add(line, points, bars)
			p.Legend.Add(fmt.Sprintf("%s (%d of %d solved)", sw.budget, solved, runs), line, points)
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		// Values from 1 to 200 (001's W) crowd at the left of a linear axis.
		if lo, hi := slices.MinFunc(ticks, byValue).Value, slices.MaxFunc(ticks, byValue).Value; lo > 0 && hi/lo >= 10 {
			p.X.Scale = plot.LogScale{}
		}
		p.Add(plotter.NewGrid())
		if err := addPlot(p, files, "sweep-"+k.solver+"-"+k.param); err != nil {
			return err
		}
	}
	return nil
}
