package report

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"soko/bench"
	"soko/internal/english"
)

// solvedTables are the tables of levels solved per solver per budget, one
// per collection (the shape of 000 Tables 6.1/6.2). A count is the mean
// over seeds; a * marks a count with runs missing.
func (d *dataset) solvedTables() []*table {
	var out []*table
	for _, c := range d.collections {
		bs := d.budgetsOf(c)
		t := &table{header: []string{"solver"}}
		t.title = fmt.Sprintf("### Levels solved: %s (%s", c, english.Count(len(d.levels[c]), "level", "levels"))
		if note := d.seedsNote(c); note != "" {
			t.title += ", " + note
		}
		t.title += ")"
		for _, b := range bs {
			t.header = append(t.header, b.String())
		}
		// The PAR-2 score, as solver competitions rank solvers beside
		// their counts: each solver's at its largest time limit.
		parAt := map[string]bench.Budget{}
		for _, s := range d.solversOf(c) {
			for _, b := range bs {
				if at, ok := parAt[s]; b.Time > 0 && d.has(c, s, b) && (!ok || b.Time >= at.Time) {
					parAt[s] = b
				}
			}
		}
		var parBudgets []string
		for _, b := range parAt {
			if !slices.Contains(parBudgets, b.String()) {
				parBudgets = append(parBudgets, b.String())
			}
		}
		if len(parAt) > 0 {
			h := fmt.Sprintf("PAR-2 (%s)", d.time.name())
			if len(parBudgets) == 1 {
				h += " at " + parBudgets[0]
			}
			t.header = append(t.header, h)
		}
		missing := false
		for _, s := range d.solversOf(c) {
			row := []string{s}
			for _, b := range bs {
				cl, ok := d.cell(c, s, b)
				switch {
				case !ok:
					row = append(row, "—")
				case !cl.complete:
					row = append(row, formatCount(cl.solved)+"*")
					missing = true
				default:
					row = append(row, formatCount(cl.solved))
				}
			}
			if len(parAt) > 0 {
				b, ok := parAt[s]
				x, okPar := d.time.par2(d.groups[gkey{c, s, b.String()}], b)
				switch {
				case !ok || !okPar:
					row = append(row, "—")
				case len(parBudgets) > 1:
					row = append(row, fmtSeconds(x)+" at "+b.String())
				default:
					row = append(row, fmtSeconds(x))
				}
			}
			t.rows = append(t.rows, row)
		}
		if len(parAt) > 0 {
			t.notes = append(t.notes, fmt.Sprintf("PAR-2: the mean over the runs of the %s of a solved run, and twice the time limit for a run not solved, "+
				"at the solver's largest time limit; lower is better.", d.time.name()))
		}
		if missing {
			t.notes = append(t.notes, "\\* some runs of this cell are missing (not run yet, or another shard's).")
		}
		for _, st := range []struct{ status, what string }{
			{bench.StatusFailed, "failed (an external program ended without a solution)"},
			{bench.StatusError, "ended in an error"},
			{StatusRefuted, "said \"no solution\" for a level another run solved"},
		} {
			if by := d.statusBySolver(c, st.status); by != "" {
				t.notes = append(t.notes, "Runs that "+st.what+": "+by+".")
			}
		}
		out = append(out, t)
	}
	return out
}

// summaryCSV: one row per collection, solver and budget, with the PAR-2
// score in seconds of the report's time (par2_solve_s, par2_wall_s or
// par2_cpu_s; empty without a time limit: see Time.par2).
func (d *dataset) summaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"collection", "solver", "budget", "time_s", "nodes", "iterations", "levels", "seeds", "runs", "solved", "complete", "par2_" + string(d.time) + "_s"})
	for _, c := range d.collections {
		for _, s := range d.solversOf(c) {
			for _, b := range d.budgetsOf(c) {
				cl, ok := d.cell(c, s, b)
				if !ok {
					continue
				}
				par2 := ""
				if x, ok := d.time.par2(d.groups[gkey{c, s, b.String()}], b); ok {
					par2 = strconv.FormatFloat(x, 'f', 6, 64)
				}
				cw.Write([]string{c, s, b.String(), strconv.FormatFloat(b.Time.Seconds(), 'g', -1, 64),
					strconv.FormatInt(b.Nodes, 10), strconv.FormatInt(b.Iterations, 10),
					strconv.Itoa(len(d.levels[c])), strconv.Itoa(d.groupSeeds[gkey{c, s, b.String()}]), strconv.Itoa(cl.runs),
					formatCount(cl.solved), strconv.FormatBool(cl.complete), par2})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// solvedPlot draws the levels of collection c solved per solver: bars when
// the collection was run at one budget, else a line per solver across the
// budgets.
func (d *dataset) solvedPlot(c string) (*plot.Plot, error) {
	bs := d.budgetsOf(c)
	if len(bs) == 1 {
		return d.solvedBars(c, bs[0])
	}
	xs, label, logScale, names := budgetAxis(bs)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved: %s (%s)", c, english.Count(len(d.levels[c]), "level", "levels"))
	p.Y.Label.Text = "levels solved"
	p.Y.Min, p.Y.Max = 0, float64(len(d.levels[c]))
	p.Y.Tick.Marker = linearTicks{integer: true}
	var lines []any
	for _, s := range d.solversOf(c) {
		var pts plotter.XYs
		for i, b := range bs {
			if cl, ok := d.cell(c, s, b); ok {
				pts = append(pts, plotter.XY{X: xs[i], Y: cl.solved})
			}
		}
		if len(pts) > 0 {
			lines = append(lines, s, pts)
		}
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	setBudgetAxis(p, xs, label, logScale, names)
	p.Add(plotter.NewGrid())
	return p, nil
}

// solvedBars draws the levels of collection c each solver solved at budget
// b as horizontal bars, the solvers top to bottom in the tables' order,
// each bar with its count (a * where runs are missing). The x axis ends at
// the number of levels, so a full bar is the whole collection.
func (d *dataset) solvedBars(c string, b bench.Budget) (*plot.Plot, error) {
	solvers := d.solversOf(c)
	n := len(solvers)
	levels := float64(len(d.levels[c]))
	vals := make(plotter.Values, n)
	// A count sits inside its bar's end, in white, where the bar is long
	// enough to hold it, else just after the bar.
	var inside, outside plotter.XYLabels
	ticks := make([]plot.Tick, n)
	for i, s := range solvers {
		y := float64(n - 1 - i)
		cl, _ := d.cell(c, s, b)
		vals[n-1-i] = cl.solved
		text := formatCount(cl.solved)
		if !cl.complete {
			text += "*"
		}
		at := &outside
		if cl.solved >= 0.15*levels {
			at = &inside
		}
		at.XYs = append(at.XYs, plotter.XY{X: cl.solved, Y: y})
		at.Labels = append(at.Labels, text)
		ticks[i] = plot.Tick{Value: y, Label: s}
	}
	bar, err := newBars(vals, min(vg.Points(14), plotHeight*0.5/vg.Length(n)))
	if err != nil {
		return nil, err
	}
	bar.Horizontal = true
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Levels solved at %s: %s (%s)", b, c, english.Count(len(d.levels[c]), "level", "levels"))
	if note := d.seedsNote(c); note != "" {
		p.Title.Text += "\n" + note
	}
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil // a line through each bar's middle
	p.Add(grid, bar)
	for _, l := range []struct {
		xy     plotter.XYLabels
		align  draw.XAlignment
		offset vg.Length
		color  color.Color
	}{{inside, draw.XRight, -vg.Points(2), color.White}, {outside, draw.XLeft, vg.Points(2), color.Black}} {
		if len(l.xy.XYs) == 0 {
			continue
		}
		labels, err := plotter.NewLabels(l.xy)
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign, labels.TextStyle[i].Color = l.align, draw.YCenter, l.color
			labels.TextStyle[i].Font.Size = vg.Points(7)
		}
		labels.Offset.X = l.offset
		p.Add(labels)
	}
	p.X.Label.Text = "levels solved"
	p.X.Min, p.X.Max = 0, max(levels, 1)
	p.X.Tick.Marker = linearTicks{integer: true}
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	return p, nil
}
