package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"soko/bench"
	"soko/internal/english"
)

// timeTable summarises each group's runs: how each ended (a column per
// status that occurs), times (of d.time, and the wall and CPU times beside
// it), the PAR-2 score, pushes, nodes or iterations, peak memory. A
// counter no run of a group has (iterations for a search, nodes for an
// external program) is "—", not a mean of zeros.
func (d *dataset) timeTable() *table {
	statuses := d.statuses()
	tn := d.time.name()
	t := &table{title: "### Runs: how they ended, times and sizes (times and pushes: of the solved runs; PAR-2: of all)",
		header: []string{"collection", "solver", "budget", "runs"}}
	t.header = append(t.header, statuses...)
	t.header = append(t.header, "mean "+tn, "median "+tn, "PAR-2 ("+tn+")")
	var others []Time // the other times, a mean of each
	for _, k := range Times {
		if k != d.time {
			others = append(others, k)
			t.header = append(t.header, "mean "+k.name())
		}
	}
	t.header = append(t.header, "mean pushes", "mean nodes", "mean iterations", "max peak MiB")
	without := 0
	for _, c := range d.collections {
		for _, s := range d.solversOf(c) {
			for _, b := range d.budgetsOf(c) {
				rs := d.groups[gkey{c, s, b.String()}]
				if len(rs) == 0 {
					continue
				}
				var pushes []float64
				var nodes, iters int64
				var peak int64
				count := map[string]int{}
				for _, r := range rs {
					count[statusOf(r)]++
					nodes += r.Expanded
					iters += r.Iterations
					peak = max(peak, r.PeakBytes)
					if r.Solved() {
						pushes = append(pushes, float64(r.Pushes))
					}
				}
				times, _ := d.time.solvedTimes(rs)
				_, w := CPUTime.solvedTimes(rs)
				without += w
				n := float64(len(rs))
				row := []string{c, s, b.String(), strconv.Itoa(len(rs))}
				for _, st := range statuses {
					row = append(row, strconv.Itoa(count[st]))
				}
				par2 := "—"
				if x, ok := d.time.par2(rs, b); ok {
					par2 = fmtSeconds(x)
				}
				row = append(row, fmtSeconds(mean(times)), fmtSeconds(median(times)), par2)
				for _, k := range others {
					ts, _ := k.solvedTimes(rs)
					row = append(row, fmtSeconds(mean(ts)))
				}
				t.rows = append(t.rows, append(row, fmtF(mean(pushes), 1),
					meanCount(nodes, n), meanCount(iters, n), fmtF(float64(peak)/(1<<20), 1)))
			}
		}
	}
	t.notes = append(t.notes, "Times are the "+d.time.meaning()+" (soko report --time solve, wall or cpu chooses). "+
		"PAR-2 is the mean over the runs of the "+tn+" of a solved run and twice the time limit for a run not solved; "+
		"— where the budget has no time limit. Pushes are the final solutions', optimized where the optimizer ran. "+
		"A counter no run has (iterations of a search, nodes of an external program) is —.")
	if without > 0 {
		note := fmt.Sprintf("%s without a measured CPU time (cpu_scope none: several threads beside other runs, or not Linux) %s left out of the CPU times",
			english.Count(without, "solved run", "solved runs"), isAre(without))
		if d.time == CPUTime {
			note += "; PAR-2 is — where one is"
		}
		t.notes = append(t.notes, note+".")
	}
	return t
}

// isAre is the verb "to be" for a count.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// meanCount is a counter's mean over n runs, or "—" when no run has it.
func meanCount(sum int64, n float64) string {
	if sum == 0 {
		return "—"
	}
	return fmtF(float64(sum)/n, 0)
}

// runsCSV: one row per run, in canonical order, with the solver's own
// solution (found_pushes, found_moves: the final one where no optimizer
// ran) beside the final one, and every time: solve_s (Record.SolveTime),
// optimize_s, wall_s and cpu_s (empty where not measured).
func (d *dataset) runsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"collection", "level", "title", "solver", "budget", "seed", "status", "verified", "pushes", "moves",
		"found_pushes", "found_moves", "solve_s", "optimize_s", "wall_s", "cpu_s", "expanded", "generated", "stored", "iterations", "tree_size", "unique_states", "peak_bytes", "error"})
	for i := range d.recs {
		r := &d.recs[i]
		cw.Write([]string{d.collOf[r.Collection()], r.Level, r.Title, r.SolverLabel(), r.Budget.String(), strconv.FormatUint(r.Seed, 10),
			r.Status, strconv.FormatBool(r.Verified), strconv.Itoa(r.Pushes), strconv.Itoa(r.Moves),
			formatCount(foundPushes(r)), formatCount(foundMoves(r)),
			strconv.FormatFloat(r.SolveTime(), 'f', 6, 64), strconv.FormatFloat(r.OptimizeS, 'f', 6, 64),
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
