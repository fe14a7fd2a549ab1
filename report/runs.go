package report

import (
	"encoding/csv"
	"io"
	"strconv"

	"soko/bench"
)

// timeTable summarises each group's runs: how each ended (a column per
// status that occurs), solve times, pushes, nodes or iterations, peak
// memory.
func (d *dataset) timeTable() *table {
	statuses := d.statuses()
	t := &table{title: "### Runs: how they ended, times and sizes (times and pushes of solved runs only)",
		header: []string{"collection", "solver", "budget", "runs"}}
	t.header = append(t.header, statuses...)
	t.header = append(t.header, "mean wall", "median wall", "mean CPU", "mean pushes", "mean nodes", "mean iterations", "max peak MiB")
	for _, c := range d.collections {
		for _, s := range d.solversOf(c) {
			for _, b := range d.budgetsOf(c) {
				rs := d.groups[gkey{c, s, b.String()}]
				if len(rs) == 0 {
					continue
				}
				var wall, cpu, pushes []float64
				var nodes, iters float64
				var peak int64
				count := map[string]int{}
				for _, r := range rs {
					count[statusOf(r)]++
					nodes += float64(r.Expanded)
					iters += float64(r.Iterations)
					peak = max(peak, r.PeakBytes)
					if r.Solved() {
						wall = append(wall, r.WallS)
						if r.CPUMeasured() {
							cpu = append(cpu, r.CPUS)
						}
						pushes = append(pushes, float64(r.Pushes))
					}
				}
				n := float64(len(rs))
				row := []string{c, s, b.String(), strconv.Itoa(len(rs))}
				for _, st := range statuses {
					row = append(row, strconv.Itoa(count[st]))
				}
				t.rows = append(t.rows, append(row, fmtSeconds(mean(wall)), fmtSeconds(median(wall)), fmtSeconds(mean(cpu)), fmtF(mean(pushes), 1),
					fmtF(nodes/n, 0), fmtF(iters/n, 0), fmtF(float64(peak)/(1<<20), 1)))
			}
		}
	}
	return t
}

// runsCSV: one row per run, in canonical order.
func (d *dataset) runsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"collection", "level", "title", "solver", "budget", "seed", "status", "verified", "pushes", "moves",
		"wall_s", "cpu_s", "expanded", "generated", "stored", "iterations", "tree_size", "unique_states", "peak_bytes", "error"})
	for i := range d.recs {
		r := &d.recs[i]
		cw.Write([]string{d.collOf[r.Collection()], r.Level, r.Title, r.SolverLabel(), r.Budget.String(), strconv.FormatUint(r.Seed, 10),
			r.Status, strconv.FormatBool(r.Verified), strconv.Itoa(r.Pushes), strconv.Itoa(r.Moves),
			strconv.FormatFloat(r.WallS, 'f', 6, 64), cpuText(r),
			strconv.FormatInt(r.Expanded, 10), strconv.FormatInt(r.Generated, 10), strconv.FormatInt(r.Stored, 10),
			strconv.FormatInt(r.Iterations, 10), strconv.FormatInt(r.TreeSize, 10), strconv.FormatInt(r.UniqueStates, 10),
			strconv.FormatInt(r.PeakBytes, 10), r.Error})
	}
	cw.Flush()
	return cw.Error()
}

// cpuText is a run's cpu_s in runs.csv: empty where it was not measured.
func cpuText(r *bench.Record) string {
	if !r.CPUMeasured() {
		return ""
	}
	return strconv.FormatFloat(r.CPUS, 'f', 6, 64)
}
