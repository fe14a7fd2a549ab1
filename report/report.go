package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"soko/bench"
	"soko/internal/english"
	"soko/internal/outfile"
	"soko/solver"
)

// tableFiles are the files Write writes in Options.OutDir besides
// the plots.
var tableFiles = []string{"report.md", "levels.md", "summary.csv", "runs.csv", "pushdiff.csv", "benchstat.txt"}

// Writes tells whether Write with o may write a file of this name in
// o.OutDir: one of its tables, or a plot (a name in a plot format's
// extension: plot names come from the results), so that a caller can
// refuse an input there before any work.
func (o Options) Writes(name string) bool {
	if o.OutDir == "" {
		return false
	}
	if slices.Contains(tableFiles, name) {
		return true
	}
	ext := strings.TrimPrefix(filepath.Ext(name), ".")
	return !o.NoPlots && slices.Contains(plotFormats, ext)
}

// Options say what Write makes.
type Options struct {
	// OutDir receives report.md, levels.md, summary.csv, runs.csv,
	// pushdiff.csv, benchstat.txt and the plots (PNG, SVG and PDF). Empty: only
	// the Markdown report is written, to the writer.
	OutDir string
	// Compare names the two solvers (labels, as in the tables) whose
	// per-level push counts are compared. Empty: the first preset's pair
	// that is in the results (schokoban and vanillaban(cycles=1), mcts-r and
	// mcts-nd, ...), else schokoban and vanillaban, else the two solvers
	// that solved the most runs; none when fewer than two solved any.
	Compare [2]string
	// NoPlots skips the plots.
	NoPlots bool
}

// dataset is the records of a report, indexed.
type dataset struct {
	recs        []bench.Record
	collections []string          // as shown: see collectionNames
	collOf      map[string]string // bench.Record.Collection() → as shown
	solvers     []string          // labels
	budgets     []bench.Budget
	levels      map[string][]string // collection → level ids in order
	titles      map[string]string   // level id → title
	seeds       map[string]int      // collection → number of distinct seeds
	groups      map[gkey][]*bench.Record
}

type gkey struct{ coll, solver, budget string }

func newDataset(recs []bench.Record) *dataset {
	recs, _ = bench.Dedup(slices.Clone(recs))
	bench.SortRecords(recs)
	refute(recs)
	d := &dataset{recs: recs, collOf: collectionNames(recs), levels: map[string][]string{}, titles: map[string]string{}, seeds: map[string]int{}, groups: map[gkey][]*bench.Record{}}
	colls, solvers, budgets := map[string]bool{}, map[string]bool{}, map[string]bench.Budget{}
	lvls := map[string]bool{}
	seeds := map[string]map[uint64]bool{}
	for i := range recs {
		r := &recs[i]
		c := d.collOf[r.Collection()]
		colls[c], solvers[r.SolverLabel()] = true, true
		budgets[r.Budget.String()] = r.Budget
		if !lvls[r.Level] {
			lvls[r.Level] = true
			d.levels[c] = append(d.levels[c], r.Level)
			d.titles[r.Level] = r.Title
		}
		if seeds[c] == nil {
			seeds[c] = map[uint64]bool{}
		}
		seeds[c][r.Seed] = true
		k := gkey{c, r.SolverLabel(), r.Budget.String()}
		d.groups[k] = append(d.groups[k], r)
	}
	for c := range colls {
		d.collections = append(d.collections, c)
		slices.SortFunc(d.levels[c], bench.CompareLevelIDs)
		d.seeds[c] = len(seeds[c])
	}
	sort.Strings(d.collections)
	for s := range solvers {
		d.solvers = append(d.solvers, s)
	}
	sort.Strings(d.solvers)
	for _, b := range budgets {
		d.budgets = append(d.budgets, b)
	}
	slices.SortFunc(d.budgets, bench.Budget.Compare)
	return d
}

// StatusRefuted is the status a report gives a run that said "no
// solution" for a level another run of the same results solved with a
// verified solution: the claim is false (a solver once took its
// heuristic's horizon for a proof), and the report does not repeat it.
const StatusRefuted = "no solution, refuted"

// refute gives StatusRefuted to every "no solution" of recs whose level
// (by LevelHash) a run of recs solved.
func refute(recs []bench.Record) {
	solved := map[string]bool{}
	for i := range recs {
		if recs[i].Solved() && recs[i].LevelHash != "" {
			solved[recs[i].LevelHash] = true
		}
	}
	for i := range recs {
		if r := &recs[i]; r.Status == solver.NoSolution.String() && solved[r.LevelHash] {
			r.Status = StatusRefuted
		}
	}
}

// collectionNames maps each collection of recs to the name reports show: an
// embedded collection's name, or a level file's base name ("levels.xsb", not
// "/home/me/levels/levels.xsb"). Two files with the same base name keep the
// path they were named by.
func collectionNames(recs []bench.Record) map[string]string {
	full := map[string]bool{}
	for i := range recs {
		full[recs[i].Collection()] = true
	}
	byBase := map[string][]string{}
	for c := range full {
		b := filepath.Base(c)
		byBase[b] = append(byBase[b], c)
	}
	out := map[string]string{}
	for b, cs := range byBase {
		for _, c := range cs {
			if len(cs) == 1 {
				out[c] = b
			} else {
				out[c] = c
			}
		}
	}
	return out
}

// levelName is a level id as reports show it: with its collection's shown
// name ("levels.xsb:3").
func (d *dataset) levelName(id string) string {
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		return d.collOf[id[:i]] + id[i:]
	}
	return d.collOf[id]
}

// cell is one (collection, solver, budget) group's solved count.
type cell struct {
	solved   float64 // mean over seeds
	complete bool    // every level × seed has a run
	runs     int
}

func (d *dataset) cell(coll, solver string, b bench.Budget) (cell, bool) {
	rs := d.groups[gkey{coll, solver, b.String()}]
	if len(rs) == 0 {
		return cell{}, false
	}
	n := 0
	for _, r := range rs {
		if r.Solved() {
			n++
		}
	}
	seeds := d.seeds[coll]
	return cell{solved: float64(n) / float64(seeds), complete: len(rs) == len(d.levels[coll])*seeds, runs: len(rs)}, true
}

// budgetsOf returns the budgets that occur in a collection.
func (d *dataset) budgetsOf(coll string) []bench.Budget {
	var out []bench.Budget
	for _, b := range d.budgets {
		for _, s := range d.solvers {
			if _, ok := d.groups[gkey{coll, s, b.String()}]; ok {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// solversOf returns the solvers that occur in a collection.
func (d *dataset) solversOf(coll string) []string {
	var out []string
	for _, s := range d.solvers {
		for _, b := range d.budgets {
			if _, ok := d.groups[gkey{coll, s, b.String()}]; ok {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

func formatCount(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// table is a table that can be written as Markdown or CSV.
type table struct {
	title  string
	header []string
	rows   [][]string
	notes  []string
}

func (t *table) markdown(w io.Writer) {
	if t.title != "" {
		fmt.Fprintf(w, "%s\n\n", t.title)
	}
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	row := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + esc(c) + " |")
		}
		fmt.Fprintln(w, b.String())
	}
	row(t.header)
	align := make([]string, len(t.header))
	for i := range align {
		align[i] = "---:"
	}
	align[0] = "---"
	fmt.Fprintln(w, "|"+strings.Join(align, "|")+"|")
	for _, r := range t.rows {
		row(r)
	}
	for _, n := range t.notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
	fmt.Fprintln(w)
}

// solvedTables are the tables of levels solved per solver per budget, one
// per collection (the shape of 000 Tables 6.1/6.2). A count is the mean
// over seeds; a * marks a count with runs missing.
func (d *dataset) solvedTables() []*table {
	var out []*table
	for _, c := range d.collections {
		bs := d.budgetsOf(c)
		t := &table{header: []string{"solver"}}
		seeds := d.seeds[c]
		t.title = fmt.Sprintf("### Levels solved: %s (%s", c, english.Count(len(d.levels[c]), "level", "levels"))
		if seeds > 1 {
			t.title += fmt.Sprintf(", mean over %d seeds", seeds)
		}
		t.title += ")"
		for _, b := range bs {
			t.header = append(t.header, b.String())
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
			t.rows = append(t.rows, row)
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

// thesisTables put our counts beside the thesis's logged ones for the
// collections and solvers of 000 Tables 6.1/6.2.
func (d *dataset) thesisTables() []*table {
	var out []*table
	names := map[string]string{"schokoban": "Schokoban", "vanillaban": "Vanillaban"}
	for _, c := range d.collections {
		tableNo := map[string]string{"cbc60": "6.1", "schokoban-microban100": "6.2"}[c]
		if tableNo == "" {
			continue
		}
		var ours []string
		for _, s := range d.solversOf(c) {
			name, _, _ := strings.Cut(s, "(")
			if names[name] != "" {
				ours = append(ours, s)
			}
		}
		if len(ours) == 0 {
			continue
		}
		iters := slices.Clone(thesisIterations)
		for _, b := range d.budgetsOf(c) {
			if b.Iterations > 0 && !slices.Contains(iters, b.Iterations) {
				iters = append(iters, b.Iterations)
			}
		}
		slices.Sort(iters)
		t := &table{title: fmt.Sprintf("### %s: ours beside the thesis's logs (%s)", c, cite("000", "Table "+tableNo)), header: []string{"iterations"}}
		for _, it := range iters {
			t.header = append(t.header, strconv.FormatInt(it, 10))
		}
		missingLog := false
		for _, s := range ours {
			name, _, _ := strings.Cut(s, "(")
			row := []string{s + " (soko)"}
			for _, it := range iters {
				v := "—"
				for _, b := range d.budgetsOf(c) {
					if b.Iterations == it {
						if cl, ok := d.cell(c, s, b); ok {
							v = formatCount(cl.solved)
							if !cl.complete {
								v += "*"
							}
							break
						}
					}
				}
				row = append(row, v)
			}
			t.rows = append(t.rows, row)
			row = []string{names[name] + " (thesis)"}
			for _, it := range iters {
				n, ok := thesisSolved(c, names[name], it)
				switch {
				case !slices.Contains(thesisIterations, it):
					row = append(row, "")
				case !ok:
					row = append(row, "n/a")
					missingLog = true
				default:
					row = append(row, strconv.Itoa(n))
				}
			}
			t.rows = append(t.rows, row)
		}
		t.notes = append(t.notes, fmt.Sprintf("Thesis rows: levels solved in the thesis's run logs (of %d); see report/data/PROVENANCE.md.", map[string]int{"cbc60": 60, "schokoban-microban100": 100}[c]))
		if missingLog {
			t.notes = append(t.notes, "n/a: the thesis's log for this budget is empty (its Table 6.2 says 77).")
		}
		out = append(out, t)
	}
	return out
}

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

// notVerified is the status the report gives a run that says it solved its
// level without a verified solution.
const notVerified = "solved, not verified"

// statusOf is how a run ended, as the report counts it.
func statusOf(r *bench.Record) string {
	if r.Status == "solved" && !r.Verified {
		return notVerified
	}
	return r.Status
}

// statuses lists how the runs ended: "solved" first, then the solver's
// statuses in their own order, then failed and error, then any other, each
// only if some run ended so ("solved" always).
func (d *dataset) statuses() []string {
	seen := map[string]bool{}
	for i := range d.recs {
		seen[statusOf(&d.recs[i])] = true
	}
	out := []string{"solved"}
	delete(seen, "solved")
	var known []string
	for _, st := range solver.Statuses()[1:] { // after solved
		known = append(known, st.String())
	}
	for _, st := range append(known, bench.StatusFailed, bench.StatusError, notVerified, StatusRefuted) {
		if seen[st] {
			out = append(out, st)
			delete(seen, st)
		}
	}
	return append(out, slices.Sorted(maps.Keys(seen))...)
}

// uniqueTable is 002 Table I: unique states per tree node, the mean over
// runs of UniqueStates/TreeSize, for the solvers that report a tree.
func (d *dataset) uniqueTable() *table {
	t := &table{title: "### Unique states per tree node (" + cite("002", "Table I") + ")", header: []string{"solver"}}
	var bs []bench.Budget
	for _, b := range d.budgets {
		for _, s := range d.solvers {
			if _, ok := d.uniqueRatio(s, b); ok {
				bs = append(bs, b)
				break
			}
		}
	}
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

// levelTables are the per-level tables: for each collection and budget, a
// row per level and a column per solver with the pushes and wall time of a
// solved run, or why it was not solved.
func (d *dataset) levelTables() []*table {
	var out []*table
	for _, c := range d.collections {
		solvers := d.solversOf(c)
		for _, b := range d.budgetsOf(c) {
			t := &table{title: fmt.Sprintf("### %s at %s: pushes (wall time), or why not solved", c, b), header: append([]string{"level"}, solvers...)}
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
	var pushes, wall []float64
	for _, r := range runs {
		if r.Solved() {
			pushes = append(pushes, float64(r.Pushes))
			wall = append(wall, r.WallS)
		}
	}
	if len(pushes) == 0 {
		if len(runs) == 1 {
			if v, ok := statusShort[runs[0].Status]; ok {
				return v
			}
			return runs[0].Status
		}
		return fmt.Sprintf("0/%d", len(runs))
	}
	v := fmt.Sprintf("%s (%s)", formatCount(median(pushes)), fmtSeconds(median(wall)))
	if len(runs) > 1 {
		v += fmt.Sprintf(" %d/%d", len(pushes), len(runs))
	}
	return v
}

// pushDiff is the per-level push-count difference a − b on one collection
// at one budget, over the levels both solve (000 Figs. 6.1/6.2), with the
// ratio of their solution lengths in moves (002 §V.B.4).
type pushDiff struct {
	coll       string
	a, b       string
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
		bs := d.budgetsOf(c)
		for i := len(bs) - 1; i >= 0; i-- {
			ra, rb := d.groups[gkey{c, a, bs[i].String()}], d.groups[gkey{c, b, bs[i].String()}]
			if len(ra) == 0 || len(rb) == 0 {
				continue
			}
			pa, pb := meanSolved(ra, pushesOf), meanSolved(rb, pushesOf)
			ma, mb := meanSolved(ra, movesOf), meanSolved(rb, movesOf)
			pd := pushDiff{coll: c, a: a, b: b, budget: bs[i], all: d.levels[c]}
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
			break
		}
	}
	return out
}

func pushesOf(r *bench.Record) float64 { return float64(r.Pushes) }
func movesOf(r *bench.Record) float64  { return float64(r.Moves) }

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
	return t
}

// ratioSummary formats the mean and range of ratios, "1.03 (0.23–2.43)".
func ratioSummary(xs []float64) string {
	if len(xs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%s–%s)", fmtF(mean(xs), 2), fmtF(slices.Min(xs), 2), fmtF(slices.Max(xs), 2))
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fmtF(x float64, prec int) string {
	if math.IsNaN(x) {
		return "—"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// fmtSeconds writes a time in seconds to three significant digits in the
// unit that suits its size: "420 µs", "12.3 ms", "1.50 s". Microban's
// solves take well under a millisecond, XSokoban's up to minutes, and one
// column holds both.
func fmtSeconds(s float64) string {
	switch {
	case math.IsNaN(s):
		return "—"
	case s == 0:
		return "0 s"
	}
	e := math.Floor(math.Log10(math.Abs(s)))
	r := math.Round(s/math.Pow(10, e-2)) * math.Pow(10, e-2) // three significant digits
	v, unit := r, "s"
	switch a := math.Abs(r) * (1 + 1e-9); {
	case a < 1e-3:
		v, unit = r*1e6, "µs"
	case a < 1:
		v, unit = r*1e3, "ms"
	}
	prec := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)*(1+1e-9)))))
	return strconv.FormatFloat(v, 'f', prec, 64) + " " + unit
}

// The documents the report's headings refer to, named by what a reader
// knows them by (the README's list of source documents gives them in
// full), so that the table or figure meant can be found.
var documents = map[string]string{
	"000": "the Schokoban thesis",
	"001": "the hybrid Q-learning report",
	"002": "the reversibility-compression paper",
}

// cite names a place in a document: cite("000", "Table 6.1") is "the
// Schokoban thesis, 000, Table 6.1".
func cite(doc, where string) string {
	return documents[doc] + ", " + doc + ", " + where
}

// Write writes the Markdown report (levels solved per collection, the
// thesis comparison where it applies, push-count differences, unique states
// per node, run times) to w, and with opts.OutDir every other output.
func Write(w io.Writer, recs []bench.Record, opts Options) error {
	d := newDataset(recs)
	var md bytes.Buffer
	fmt.Fprintf(&md, "## Benchmark report\n\n%s: %s, %s, %s.", english.Count(len(d.recs), "run", "runs"), english.Count(len(d.solvers), "solver", "solvers"),
		english.Count(len(d.collections), "collection", "collections"), english.Count(len(d.budgets), "budget", "budgets"))
	var outcomes []string
	for _, st := range d.statuses() {
		n := 0
		for i := range d.recs {
			if statusOf(&d.recs[i]) == st {
				n++
			}
		}
		outcomes = append(outcomes, fmt.Sprintf("%d %s", n, st))
	}
	fmt.Fprintf(&md, " How they ended: %s.", strings.Join(outcomes, ", "))
	where := "the results' error field"
	if opts.OutDir != "" {
		where = "runs.csv and levels.md"
	}
	if n, by := d.countStatus(bench.StatusError); n > 0 {
		fmt.Fprintf(&md, " %s ended in an error (the run could not be done, or its solution did not verify): %s; see %s.",
			english.Count(n, "run", "runs"), by, where)
	}
	if n, by := d.countStatus(bench.StatusFailed); n > 0 {
		fmt.Fprintf(&md, " %s failed (an external program ended without a solution before its time limit): %s; see %s.",
			english.Count(n, "run", "runs"), by, where)
	}
	if n, by := d.countStatus(StatusRefuted); n > 0 {
		fmt.Fprintf(&md, " %s said \"no solution\" for a level another run solved (%s): %s; run them again.",
			english.Count(n, "run", "runs"), StatusRefuted, by)
	}
	fmt.Fprint(&md, "\n\n")
	for _, t := range d.solvedTables() {
		t.markdown(&md)
	}
	for _, t := range d.thesisTables() {
		t.markdown(&md)
	}
	var pds []pushDiff
	if a, b, ok := d.comparePair(opts.Compare); ok {
		pds = d.pushDiffs(a, b)
		if t := d.pushDiffTable(pds); t != nil {
			t.markdown(&md)
		}
	} else if opts.Compare[0] != "" {
		fmt.Fprintf(&md, "(no push-count comparison: %s and %s are not both in the results)\n\n", opts.Compare[0], opts.Compare[1])
	} else if len(d.solvers) > 1 {
		fmt.Fprint(&md, "(no push-count comparison: fewer than two solvers solved a level; --compare A,B names the pair)\n\n")
	}
	if t := d.uniqueTable(); t != nil {
		t.markdown(&md)
	}
	d.timeTable().markdown(&md)
	for _, t := range d.sweepTables() {
		t.markdown(&md)
	}
	if opts.OutDir == "" {
		_, err := w.Write(md.Bytes())
		return err
	}
	tables := map[string]func(io.Writer) error{
		"report.md": func(w io.Writer) error { _, err := w.Write(md.Bytes()); return err },
		"levels.md": func(w io.Writer) error {
			fmt.Fprintln(w, "## Per-level results")
			fmt.Fprintln(w)
			for _, t := range d.levelTables() {
				t.markdown(w)
			}
			return nil
		},
		"summary.csv":   d.summaryCSV,
		"runs.csv":      d.runsCSV,
		"pushdiff.csv":  func(w io.Writer) error { return pushDiffCSV(w, pds) },
		"benchstat.txt": func(w io.Writer) error { return WriteBenchstat(w, d.recs) },
	}
	files := &reportFiles{dir: opts.OutDir}
	for _, name := range tableFiles { // TestReportWrites checks that tables has each
		var b bytes.Buffer
		if err := tables[name](&b); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(opts.OutDir, name), err)
		}
		files.add(name, b.Bytes())
	}
	if !opts.NoPlots {
		if err := d.plots(files, pds); err != nil {
			return err
		}
	}
	if err := files.check(); err != nil {
		return err
	}
	if _, err := w.Write(md.Bytes()); err != nil {
		return err
	}
	return files.write()
}

// reportFiles are the files of a report with OutDir, made in memory
// before any is written, so that each is checked (outfile.Check: a
// regular file the user may write, or a new one) before the first is
// written: a report stopped by a read-only report.md must not leave
// the folder half new, half old.
type reportFiles struct {
	dir   string
	names []string
	data  map[string][]byte
}

func (r *reportFiles) add(name string, data []byte) {
	if r.data == nil {
		r.data = map[string][]byte{}
	}
	if _, ok := r.data[name]; !ok {
		r.names = append(r.names, name)
	}
	r.data[name] = data
}

// check refuses, naming it, the first file that cannot be written.
func (r *reportFiles) check() error {
	if _, err := os.Stat(r.dir); err != nil {
		return nil // a new folder: every file is new (the caller checked its parent)
	}
	for _, name := range r.names {
		path := filepath.Join(r.dir, name)
		if err := outfile.Check(path); err != nil {
			return fmt.Errorf("%w; no file of the report was written", err)
		}
		if err := r.own(path, r.data[name]); err != nil {
			return err
		}
	}
	return nil
}

// own refuses a file at path that exists, is not empty and does not start
// as data, the report's file there, does (its heading, a table's header
// line, a plot's format): the user's notes named report.md, or a
// document named like a plot, are not written over.
func (r *reportFiles) own(path string, data []byte) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // none yet (Check refused what cannot be read)
	}
	defer f.Close()
	sig, _, _ := bytes.Cut(data[:min(len(data), 16)], []byte("\n"))
	head := make([]byte, len(sig))
	n, _ := io.ReadFull(f, head)
	if n == 0 || bytes.Equal(head, sig) {
		return nil
	}
	return fmt.Errorf("%s exists and was not written by soko report: it does not start with %q as the report's %s does; soko does not write over a file of another kind: move it, or give another --out-dir; no file of the report was written",
		path, sig, filepath.Base(path))
}

// write makes the folder and writes the files.
func (r *reportFiles) write() error {
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return err
	}
	for _, name := range r.names {
		f, err := outfile.Create(filepath.Join(r.dir, name))
		if err != nil {
			return err
		}
		_, err = f.Write(r.data[name])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(r.dir, name), err)
		}
	}
	return nil
}

// countStatus counts the runs with the given status and names their
// solvers: "fake 3, other 1".
func (d *dataset) countStatus(status string) (int, string) {
	n := 0
	for i := range d.recs {
		if d.recs[i].Status == status {
			n++
		}
	}
	return n, d.statusBySolver("", status)
}

// statusBySolver names the solvers with runs of the given status in a
// collection (all when coll is ""), with their counts: "fake 3, other 1".
func (d *dataset) statusBySolver(coll, status string) string {
	bySolver := map[string]int{}
	for i := range d.recs {
		r := &d.recs[i]
		if r.Status == status && (coll == "" || d.collOf[r.Collection()] == coll) {
			bySolver[r.SolverLabel()]++
		}
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(bySolver)) {
		parts = append(parts, s+" "+strconv.Itoa(bySolver[s]))
	}
	return strings.Join(parts, ", ")
}

// summaryCSV: one row per collection, solver and budget.
func (d *dataset) summaryCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"collection", "solver", "budget", "time_s", "nodes", "iterations", "levels", "seeds", "runs", "solved", "complete"})
	for _, c := range d.collections {
		for _, s := range d.solversOf(c) {
			for _, b := range d.budgetsOf(c) {
				cl, ok := d.cell(c, s, b)
				if !ok {
					continue
				}
				cw.Write([]string{c, s, b.String(), strconv.FormatFloat(b.Time.Seconds(), 'g', -1, 64),
					strconv.FormatInt(b.Nodes, 10), strconv.FormatInt(b.Iterations, 10),
					strconv.Itoa(len(d.levels[c])), strconv.Itoa(d.seeds[c]), strconv.Itoa(cl.runs),
					formatCount(cl.solved), strconv.FormatBool(cl.complete)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
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

func pushDiffCSV(w io.Writer, pds []pushDiff) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"collection", "budget", "level", "solver_a", "solver_b", "pushes_a_minus_b", "moves_a_over_b"})
	for _, pd := range pds {
		for i, id := range pd.levels {
			cw.Write([]string{pd.coll, pd.budget.String(), id, pd.a, pd.b, formatCount(pd.diffs[i]), fmtF(pd.moveRatios[i], 4)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteBenchstat writes the runs in the Go benchmark format, so that two
// versions of a solver can be compared with benchstat:
//
//	BenchmarkSolve/solver=astar/budget=t10s/level=microban:12  1  1234567 ns/op  0.0012 cpu-sec/op  12 pushes  1 solved  345 nodes/op
//
// One line per run (seeds are repetitions), plus one BenchmarkSolved line
// per collection, solver and budget with the levels solved by each seed.
// Level ids and budgets are written without '/', ' ' and '=' so that
// benchstat reads the names back.
func WriteBenchstat(w io.Writer, recs []bench.Record) error {
	d := newDataset(recs)
	bw := &bytes.Buffer{}
	fmt.Fprintln(bw, "pkg: soko/bench")
	fmt.Fprintln(bw, "note: one line per run; compare two results files with benchstat")
	for i := range d.recs {
		r := &d.recs[i]
		solved := 0
		if r.Solved() {
			solved = 1
		}
		cpu := "" // a run whose CPU time was not measured has no cpu-sec/op
		if r.CPUMeasured() {
			cpu = fmt.Sprintf("\t%.6f cpu-sec/op", r.CPUS)
		}
		fmt.Fprintf(bw, "BenchmarkSolve/solver=%s/budget=%s/level=%s\t1\t%d ns/op%s\t%d pushes\t%d moves\t%d solved\t%d nodes/op\t%d iterations/op\t%d peak-B\n",
			benchName(r.SolverLabel()), benchBudget(r.Budget), benchName(d.levelName(r.Level)), int64(math.Round(r.WallS*1e9)), cpu,
			r.Pushes, r.Moves, solved, r.Expanded, r.Iterations, r.PeakBytes)
	}
	for _, c := range d.collections {
		for _, s := range d.solversOf(c) {
			for _, b := range d.budgetsOf(c) {
				bySeed := map[uint64]int{}
				for _, r := range d.groups[gkey{c, s, b.String()}] {
					if _, ok := bySeed[r.Seed]; !ok {
						bySeed[r.Seed] = 0
					}
					if r.Solved() {
						bySeed[r.Seed]++
					}
				}
				seeds := slices.Sorted(maps.Keys(bySeed))
				for _, seed := range seeds {
					fmt.Fprintf(bw, "BenchmarkSolved/collection=%s/solver=%s/budget=%s\t1\t%d levels\n",
						benchName(c), benchName(s), benchBudget(b), bySeed[seed])
				}
			}
		}
	}
	_, err := w.Write(bw.Bytes())
	return err
}

// benchName makes s usable inside a benchmark name part.
func benchName(s string) string {
	return strings.NewReplacer("/", "_", " ", "_", "=", ":", "\t", "_").Replace(s)
}

// benchBudget writes a budget without '=': "i100", "n5000", "t10s", joined
// by '+'.
func benchBudget(b bench.Budget) string {
	var parts []string
	if b.Iterations > 0 {
		parts = append(parts, "i"+strconv.FormatInt(b.Iterations, 10))
	}
	if b.Nodes > 0 {
		parts = append(parts, "n"+strconv.FormatInt(b.Nodes, 10))
	}
	if b.Time > 0 {
		parts = append(parts, "t"+b.Time.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}
