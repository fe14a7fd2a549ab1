package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"soko/bench"
	"soko/internal/english"
	"soko/internal/outfile"
	"soko/internal/suggest"
	"soko/report"
)

const reportDoc = `Reads bench results and prints a Markdown report: levels solved per solver
per budget for each collection (as in the Schokoban thesis's Tables 6.1 and
6.2) with the PAR-2 score, the thesis's logged numbers beside ours for cbc60
and schokoban-microban100, per-level push-count differences of two
solvers' own solutions and their times against each other, unique states
per tree node (the reversibility-compression paper's Table I), where a
portfolio's time went per member (levels solved, time, expansions per
second) and how every run ended, with its times. Times are solve times
(the search's, without the optimizer's work on its solution) unless
--time says wall or cpu. With --out-dir it also writes report.md, levels.md (per-level
tables), summary.csv, runs.csv, pushdiff.csv, benchstat.txt and the plots
(cactus plots of levels solved within t, and the per-level times of two
solvers against each other, among them) in PNG, SVG and PDF at the width
of a paper's column. --benchstat prints the benchstat text instead of the
report.
`

func runReport(ctx context.Context, opts *reportConfig, files []string, _ io.Reader, stdout, stderr io.Writer) (err error) {
	ro := report.Options{OutDir: opts.outDir, NoPlots: opts.noPlots, Time: opts.time, Optimized: opts.optimized}
	for _, f := range files {
		if err := inputExists("report", "results file", f); err != nil {
			return err
		}
	}
	if opts.benchstat && opts.outDir != "" {
		return usagef("report: --benchstat prints the benchstat text and nothing else; --out-dir does not go with it (the report's files hold benchstat.txt)")
	}
	if opts.outDir != "" {
		if err := outfile.CheckDir(opts.outDir); err != nil {
			return usagef("report: --out-dir %v", err)
		}
		if err := notReportInput(ro, files); err != nil {
			return err
		}
		// One report at a time in a folder: two would mix their files.
		lock, made, err := outfile.LockDir(opts.outDir)
		if err != nil {
			return fmt.Errorf("report: --out-dir %w", err)
		}
		defer func() {
			lock.Close()
			if made && err != nil {
				os.Remove(opts.outDir) // made by this run, and still empty
			}
		}()
	}
	if opts.byFile && len(files) < 2 {
		return usagef("report: --by-file compares results files as arms: give two or more")
	}
	var recs []bench.Record
	if opts.byFile {
		var arms []string
		if arms, err = bench.ArmNames(files); err != nil {
			return usagef("report: --by-file: %v", err)
		}
		if recs, err = bench.ReadArms(ctx, stderr, arms, files); err != nil {
			return err
		}
	} else {
		var repeats int
		if recs, repeats, err = bench.ReadFilesContext(ctx, stderr, files...); err != nil {
			return err
		}
		if repeats > 0 {
			fmt.Fprintln(stderr, "report: to compare the files, each as an arm of its own, run it with --by-file")
		}
	}
	if len(recs) == 0 {
		return fmt.Errorf("report: no runs in %s", strings.Join(files, ", "))
	}
	if opts.benchstat {
		return report.WriteBenchstat(stdout, recs, opts.time)
	}
	if opts.compare != "" {
		a, b, ok := strings.Cut(opts.compare, ",")
		if !ok || a == "" || b == "" {
			return usagef("report: --compare wants A,B")
		}
		if a == b {
			return usagef("report: --compare %s,%s names one solver twice: want two", a, b)
		}
		var labels []string
		for i := range recs {
			if l := recs[i].SolverLabel(); !slices.Contains(labels, l) {
				labels = append(labels, l)
			}
		}
		slices.Sort(labels)
		for _, s := range []string{a, b} {
			if !slices.Contains(labels, s) {
				return usagef("report: --compare: no solver %s in the results (they hold %s)%s", s, strings.Join(labels, ", "), suggest.DidYouMean(s, labels, nil))
			}
		}
		ro.Compare = [2]string{a, b}
	}
	if err := report.WriteContext(ctx, stdout, recs, ro); err != nil {
		if refused, ok := errors.AsType[*report.RefusedError](err); ok {
			return usagef("report: --out-dir: %v", refused)
		}
		return err
	}
	if opts.outDir != "" {
		fmt.Fprintf(stderr, "report: %s; tables and plots in %s\n", english.Count(len(recs), "run", "runs"), opts.outDir)
	}
	return nil
}

// notReportInput refuses, as a usage error before any work, a results
// file that report would write over: one that is a file of ro.OutDir of a
// name report writes there (report.Options.Writes), such as
// out/runs.csv, or a link to it.
func notReportInput(ro report.Options, files []string) error {
	entries, err := os.ReadDir(ro.OutDir)
	if err != nil {
		return nil // a folder to be made holds no input
	}
	for _, e := range entries {
		if !ro.Writes(e.Name()) {
			continue
		}
		path := filepath.Join(ro.OutDir, e.Name())
		for _, in := range files {
			if sameOutput(in, path) {
				return usagef("report: --out-dir %s: the input %s is a file report may write there (its tables and plots): soko does not write over what it reads; give another folder, or move the results file", ro.OutDir, in)
			}
		}
	}
	return nil
}

type reportConfig struct {
	outDir, compare                       string
	time                                  report.Time
	benchstat, noPlots, optimized, byFile bool
}

// timeKindValue is report's --time: a kind of time (report.Times),
// refused at parsing so that the error names the flag as typed.
type timeKindValue struct{ kind *report.Time }

func (v timeKindValue) String() string {
	if v.kind == nil {
		return ""
	}
	return string(*v.kind)
}

func (v timeKindValue) Set(s string) error {
	kind, err := report.ParseTime(s)
	if err != nil {
		return err // the flag's error names the value as typed
	}
	*v.kind = kind
	return nil
}

func reportFlags() (*flag.FlagSet, *reportConfig) {
	c := &reportConfig{}
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.StringVar(&c.outDir, "out-dir", "", "write the report, CSV tables, benchstat text and plots to `DIR`")
	fs.StringVar(&c.compare, "compare", "", "two solvers `A,B` (as in the tables) whose push counts and times are compared per level (default: a preset's pair in the results, else the two that solved the most)")
	c.time = report.SolveTime
	fs.Var(timeKindValue{&c.time}, "time", "the `KIND` of time the tables and plots use: solve (the search's, to its answer), wall (the whole run, optimizer included) or cpu (where measured)")
	fs.BoolVar(&c.optimized, "optimized", false, "compare the optimized solutions' push counts per level, not the solvers' own")
	fs.BoolVar(&c.benchstat, "benchstat", false, "print the runs in the Go benchmark format for benchstat, and nothing else")
	fs.BoolVar(&c.noPlots, "no-plots", false, "with --out-dir, skip the plots")
	fs.BoolVar(&c.byFile, "by-file", false, "take each results file as an arm of its own, such as two builds' runs of one bench: its runs' solver labels end in @ and the file's name (fess@base, fess@new)")
	return fs, c
}
