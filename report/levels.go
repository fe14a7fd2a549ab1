package report

import (
	"fmt"

	"soko/bench"
)

// levelTables are the per-level tables: for each collection and budget, a
// row per level and a column per solver with the pushes and time (of
// d.time) of a solved run, or why it was not solved.
func (d *dataset) levelTables() []*table {
	var out []*table
	for _, c := range d.collections {
		solvers := d.solversOf(c)
		for _, b := range d.budgetsOf(c) {
			t := &table{title: fmt.Sprintf("### %s at %s: pushes (%s), or why not solved", c, b, d.time.name()), header: append([]string{"level"}, solvers...)}
			for _, id := range d.levels[c] {
				name := d.levelName(id)
				if tt := d.titles[id]; tt != "" {
					name += " " + tt
				}
				row := []string{name}
				for _, s := range solvers {
					row = append(row, d.levelCell(c, s, b, id))
				}
				t.rows = append(t.rows, row)
			}
			out = append(out, t)
		}
	}
	return out
}

var statusShort = map[string]string{
	"no solution": "unsolvable", "time limit": "time", "memory limit": "memory",
	"node limit": "nodes", "iteration limit": "iterations", "cancelled": "cancelled",
	bench.StatusError: "ERROR", bench.StatusFailed: "failed", StatusRefuted: "REFUTED",
}

func (d *dataset) levelCell(c, s string, b bench.Budget, id string) string {
	var runs []*bench.Record
	for _, r := range d.groups[gkey{c, s, b.String()}] {
		if r.Level == id {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return ""
	}
	var pushes []float64
	for _, r := range runs {
		if r.Solved() {
			pushes = append(pushes, float64(r.Pushes))
		}
	}
	times, _ := d.time.solvedTimes(runs)
	if len(pushes) == 0 {
		if len(runs) == 1 {
			if v, ok := statusShort[runs[0].Status]; ok {
				return v
			}
			return runs[0].Status
		}
		return fmt.Sprintf("0/%d", len(runs))
	}
	v := fmt.Sprintf("%s (%s)", formatCount(median(pushes)), fmtSeconds(median(times)))
	if len(runs) > 1 {
		v += fmt.Sprintf(" %d/%d", len(pushes), len(runs))
	}
	return v
}
