package report

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"

	"soko/bench"
)

// compactNumber writes 100000 as "100k", 2000000 as "2M", 0.1 as "0.1".
func compactNumber(x float64) string {
	switch {
	case x >= 1e6 && math.Mod(x, 1e6) == 0:
		return strconv.FormatFloat(x/1e6, 'g', -1, 64) + "M"
	case x >= 1e3 && math.Mod(x, 1e3) == 0:
		return strconv.FormatFloat(x/1e3, 'g', -1, 64) + "k"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// levelTicks are linearTicks{integer: true} at the levels that exist only.
type levelTicks map[int]bool

func (t levelTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (linearTicks{integer: true}).Ticks(lo, hi) {
		if t[int(tk.Value)] {
			out = append(out, tk)
		}
	}
	return out
}

// secondsTicks are linearTicks for an axis of seconds, labelled in the
// unit that suits the axis's largest value: "0.5 ms", "3 ms" rather than
// "0.0005", "0.003".
type secondsTicks struct{}

func (secondsTicks) Ticks(lo, hi float64) []plot.Tick {
	scale, unit := 1.0, " s"
	switch top := max(math.Abs(lo), math.Abs(hi)); {
	case top < 1e-3:
		scale, unit = 1e-6, " µs"
	case top < 1:
		scale, unit = 1e-3, " ms"
	}
	ticks := linearTicks{}.Ticks(lo, hi)
	for i := range ticks {
		ticks[i].Label = strconv.FormatFloat(math.Round(ticks[i].Value/scale*1e6)/1e6, 'g', 6, 64) + unit
	}
	return ticks
}

// linearTicks are ticks at the round step (1, 2 or 5 times a power of ten)
// that gives closest to six of them, every one labelled; integer keeps the
// step at least 1.
type linearTicks struct{ integer bool }

func (t linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/6)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if math.Abs((hi-lo)/(m*mag)-6) < math.Abs((hi-lo)/step-6) {
			step = m * mag
		}
	}
	if t.integer {
		step = max(step, 1)
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi+step*1e-9; i++ {
		v := i * step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ticks
}

// logTicks are ticks at 1, 2 and 5 times each power of ten in range (at
// every power only when the range spans more than four, or for seconds more
// than two, as their labels are wider), every one labelled; seconds labels
// them as times ("500 µs", "20 ms", "1 s").
type logTicks struct{ seconds bool }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	mults := []float64{1, 2, 5}
	if hi/lo > 1e4 || (t.seconds && hi/lo > 100) {
		mults = []float64{1}
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range mults {
			v := m * math.Pow(10, e)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				label := strconv.FormatFloat(v, 'g', 6, 64)
				if t.seconds {
					label = secondsLabel(v)
				}
				ticks = append(ticks, plot.Tick{Value: v, Label: label})
			}
		}
	}
	return ticks
}

// log10SecondsTicks are logTicks{seconds: true} for an axis whose values
// are the log10 of seconds. The time axes are drawn so, rather than on
// plot.LogScale, because gonum/plot places an axis label by the linear
// midpoint of its range, which on a log scale narrows the plot to keep
// the label in.
type log10SecondsTicks struct{}

func (log10SecondsTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := logTicks{seconds: true}.Ticks(math.Pow(10, lo), math.Pow(10, hi))
	for i := range ticks {
		ticks[i].Value = math.Log10(ticks[i].Value)
	}
	return ticks
}

// secondsLabel writes a round time in seconds in the unit that suits it:
// "500 µs", "20 ms", "1 s", "100 s".
func secondsLabel(v float64) string {
	switch {
	case v < 1e-3*(1-1e-9):
		return strconv.FormatFloat(math.Round(v*1e9)/1e3, 'g', -1, 64) + " µs"
	case v < 1-1e-9:
		return strconv.FormatFloat(math.Round(v*1e6)/1e3, 'g', -1, 64) + " ms"
	}
	return strconv.FormatFloat(v, 'g', -1, 64) + " s"
}

// budgetAxis places budgets on an x axis: by iterations, nodes or seconds
// when only that limit varies (on a log scale when it spans a factor of ten
// or more), otherwise by position with the budgets as labels.
func budgetAxis(bs []bench.Budget) (xs []float64, label string, logScale bool, names []string) {
	vary := func(f func(bench.Budget) float64) bool {
		for _, b := range bs[1:] {
			if f(b) != f(bs[0]) {
				return true
			}
		}
		return false
	}
	axes := []struct {
		label string
		f     func(bench.Budget) float64
	}{
		{"iterations", func(b bench.Budget) float64 { return float64(b.Iterations) }},
		{"states expanded", func(b bench.Budget) float64 { return float64(b.Nodes) }},
		{"seconds", func(b bench.Budget) float64 { return b.Time.Seconds() }},
	}
	var varying []int
	for i, a := range axes {
		if len(bs) > 1 && vary(a.f) {
			varying = append(varying, i)
		}
	}
	if len(varying) == 1 {
		a := axes[varying[0]]
		lo, hi := math.Inf(1), 0.0
		ok := true
		for _, b := range bs {
			x := a.f(b)
			if x <= 0 {
				ok = false
			}
			xs = append(xs, x)
			lo, hi = min(lo, x), max(hi, x)
		}
		if ok {
			return xs, "budget (" + a.label + ")", hi/lo >= 10, nil
		}
		xs = nil
	}
	for i, b := range bs {
		xs = append(xs, float64(i))
		names = append(names, b.String())
	}
	return xs, "budget", false, names
}

// setBudgetAxis puts the budgets on p's x axis, one labelled tick at each.
func setBudgetAxis(p *plot.Plot, xs []float64, label string, logScale bool, names []string) {
	p.X.Label.Text = label
	if names != nil {
		ticks := make([]plot.Tick, len(names))
		for i, n := range names {
			ticks[i] = plot.Tick{Value: float64(i), Label: n}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
		return
	}
	ticks := make([]plot.Tick, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: compactNumber(x)}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	lo, hi := slices.Min(xs), slices.Max(xs)
	if logScale {
		p.X.Scale = plot.LogScale{}
		p.X.Min, p.X.Max = lo/1.4, hi*1.4
	} else {
		pad := max((hi-lo)*0.05, math.Abs(hi)*0.05, 0.5)
		p.X.Min, p.X.Max = lo-pad, hi+pad
	}
}
