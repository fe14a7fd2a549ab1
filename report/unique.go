package report

import (
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"soko/bench"
)

// uniqueTable is 002 Table I: unique states per tree node, the mean over
// runs of UniqueStates/TreeSize, for the solvers that report a tree.
func (d *dataset) uniqueTable() *table {
	t := &table{title: "### Unique states per tree node (" + cite("002", "Table I") + ")", header: []string{"solver"}}
	bs := d.uniqueBudgets()
	for _, b := range bs {
		t.header = append(t.header, b.String())
	}
	for _, s := range d.solvers {
		row := []string{s}
		has := false
		for _, b := range bs {
			if v, ok := d.uniqueRatio(s, b); ok {
				row = append(row, fmtF(v, 3))
				has = true
			} else {
				row = append(row, "—")
			}
		}
		if has {
			t.rows = append(t.rows, row)
		}
	}
	if len(t.rows) == 0 {
		return nil
	}
	return t
}

// uniqueBudgets are the budgets at which some solver reports a tree.
func (d *dataset) uniqueBudgets() []bench.Budget {
	var bs []bench.Budget
	for _, b := range d.budgets {
		if slices.ContainsFunc(d.solvers, func(s string) bool { _, ok := d.uniqueRatio(s, b); return ok }) {
			bs = append(bs, b)
		}
	}
	return bs
}

// uniqueRatio is the mean of UniqueStates/TreeSize over all collections'
// runs of solver s at budget b that report a tree.
func (d *dataset) uniqueRatio(s string, b bench.Budget) (float64, bool) {
	var sum float64
	n := 0
	for _, c := range d.collections {
		for _, r := range d.groups[gkey{c, s, b.String()}] {
			if r.TreeSize > 0 {
				sum += float64(r.UniqueStates) / float64(r.TreeSize)
				n++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

func (d *dataset) uniquePlot() (*plot.Plot, error) {
	bs := d.uniqueBudgets()
	if len(bs) == 0 {
		return nil, nil
	}
	xs, label, logScale, names := budgetAxis(bs)
	p := plot.New()
	p.Title.Text = "Unique states per tree node"
	p.Y.Label.Text = "unique states / tree size"
	var lines []any
	lo, hi := math.Inf(1), 0.0
	for _, s := range d.solvers {
		var pts plotter.XYs
		for i, b := range bs {
			if v, ok := d.uniqueRatio(s, b); ok {
				pts = append(pts, plotter.XY{X: xs[i], Y: v})
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if len(pts) > 0 {
			lines = append(lines, s, pts)
		}
	}
	// A log scale when the ratios span a factor of ten (002 Table I: about
	// 0.01 to 7).
	if lo > 0 && hi/lo >= 10 {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	} else {
		p.Y.Tick.Marker = linearTicks{}
		p.Y.Min, p.Y.Max = 0, hi*1.1
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	setBudgetAxis(p, xs, label, logScale, names)
	p.Add(plotter.NewGrid())
	return p, nil
}
