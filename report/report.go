package report

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"soko/bench"
	"soko/internal/english"
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
	// per-level push counts and times are compared. Empty: the first preset's pair
	// that is in the results (schokoban and vanillaban(cycles=1), mcts-r and
	// mcts-nd, ...), else schokoban and vanillaban, else the two solvers
	// that solved the most runs; none when fewer than two solved any.
	Compare [2]string
	// NoPlots skips the plots.
	NoPlots bool
	// Time is the time the tables and plots use; empty: SolveTime.
	Time Time
	// Optimized compares the optimized solutions' push counts (pushes),
	// not the solvers' own (found_pushes, where the optimizer ran).
	Optimized bool
}

// Write writes the Markdown report (levels solved per collection, the
// thesis comparison where it applies, push-count differences, unique states
// per node, run times) to w, and with opts.OutDir every other output.
func Write(w io.Writer, recs []bench.Record, opts Options) error {
	return WriteContext(context.Background(), w, recs, opts)
}

// WriteContext is Write that stops, writing nothing more, when ctx ends
// (between its tables and plots), and returns ctx's error.
func WriteContext(ctx context.Context, w io.Writer, recs []bench.Record, opts Options) error {
	d := newDataset(recs)
	d.time, d.optimized = opts.Time.kind(), opts.Optimized
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
	if n := len(d.reboarded); n > 0 {
		fmt.Fprintf(&md, " %s runs on more than one board (the file was edited between runs: their level_hash differs), so their counts mix the boards: %s; run them again into a new file.",
			english.Count(n, "level has", "levels have"), strings.Join(d.reboarded, ", "))
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
	var tps []timePair
	if a, b, ok := d.comparePair(opts.Compare); ok {
		pds = d.pushDiffs(a, b)
		tps = d.timePairs(a, b)
		if t := d.pushDiffTable(pds); t != nil {
			t.markdown(&md)
		}
		if t := timePairTable(tps); t != nil {
			t.markdown(&md)
		}
	} else if opts.Compare[0] != "" {
		fmt.Fprintf(&md, "(no push-count or time comparison of two solvers: %s and %s are not both in the results)\n\n", opts.Compare[0], opts.Compare[1])
	} else if len(d.solvers) > 1 {
		fmt.Fprint(&md, "(no push-count or time comparison of two solvers: fewer than two solvers solved a level; --compare A,B names the pair)\n\n")
	}
	if t := d.uniqueTable(); t != nil {
		t.markdown(&md)
	}
	if t := d.memberTable(); t != nil {
		t.markdown(&md)
	}
	if t := d.threadsTable(); t != nil {
		t.markdown(&md)
	}
	d.timeTable().markdown(&md)
	for _, t := range d.sweepTables() {
		t.markdown(&md)
	}
	if err := ctx.Err(); err != nil {
		return err
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
		"benchstat.txt": func(w io.Writer) error { return WriteBenchstat(w, d.recs, d.time) },
	}
	files := &reportFiles{dir: opts.OutDir, ctx: ctx}
	for _, name := range tableFiles { // TestReportWrites checks that tables has each
		if err := ctx.Err(); err != nil {
			return err
		}
		var b bytes.Buffer
		if err := tables[name](&b); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(opts.OutDir, name), err)
		}
		files.add(name, b.Bytes())
	}
	if !opts.NoPlots {
		if err := d.plots(files, pds, tps); err != nil {
			return err
		}
	}
	if stale := files.stale(); len(stale) > 0 {
		fmt.Fprintf(&md, "The folder also holds %s this report did not make (an earlier report's): %s.\n",
			english.Count(len(stale), "plot", "plots"), strings.Join(stale, ", "))
		files.add("report.md", md.Bytes())
	}
	if err := files.check(); err != nil {
		return err
	}
	if _, err := w.Write(md.Bytes()); err != nil {
		return err
	}
	return files.write()
}
