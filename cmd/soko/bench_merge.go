package main

import (
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"soko/bench"
	"soko/internal/english"
	"soko/internal/outfile"
)

const mergeDoc = `Joins results files, such as the shards of one bench, into one: runs
sorted, each kept once (the first record of it). Duplicates are counted on
standard error, and those that differ from the record kept are named.
`

func mergeFlags() (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("bench merge", flag.ContinueOnError)
	out := fs.String("out", "", "merged results `FILE` (default: standard output)")
	return fs, out
}

func runBenchMerge(_ context.Context, out *string, files []string, _ io.Reader, stdout, stderr io.Writer) error {
	for _, f := range files {
		if err := inputExists("", "results file", f); err != nil {
			return fmt.Errorf("bench merge: %w", err)
		}
	}
	if *out == "" {
		runs, _, err := bench.Merge(stdout, stderr, files...) // Merge says what it dropped
		if err != nil {
			return err
		}
		if runs == 0 {
			return noRuns(files)
		}
		fmt.Fprintf(stderr, "bench merge: %s from %s\n", english.Count(runs, "run", "runs"), english.Count(len(files), "file", "files"))
		return nil
	}
	for _, in := range files {
		if sameOutput(in, *out) {
			return usagef("bench merge: --out %s is also an input", *out)
		}
	}
	lock, err := takeOut("bench merge", "--out", *out, kindAny)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := resultsOrNew(*out); err != nil {
		return fmt.Errorf("bench merge: --out %w", err)
	}
	// The file is replaced whole once merged (the old one stays if a file
	// cannot be read), gzipped when its name says so.
	var runs int
	err = outfile.Replace(*out, func(w io.Writer) error {
		dst, finish := w, func() error { return nil }
		if gzipped(*out) {
			zw := gzip.NewWriter(w)
			dst, finish = zw, zw.Close
		}
		if runs, _, err = bench.Merge(dst, stderr, files...); err != nil { // Merge says what it dropped
			return err
		}
		if runs == 0 {
			return errNoRuns // the file stays as it was
		}
		return finish()
	})
	if errors.Is(err, errNoRuns) {
		return noRuns(files)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "bench merge: %s from %s\n", english.Count(runs, "run", "runs"), english.Count(len(files), "file", "files"))
	return nil
}

// errNoRuns ends the writing of a merge of no run.
var errNoRuns = errors.New("no runs")

// noRuns is bench merge's error when its files hold no run (as report's
// is): an empty merge is never written.
func noRuns(files []string) error {
	return fmt.Errorf("bench merge: no runs in %s (a bench still starting writes none yet); nothing written", strings.Join(files, ", "))
}

// resultsOrNew refuses a file that exists, is not empty and does not read
// as soko bench results (package bench recognises them by their records),
// so that bench merge --out never replaces a file soko did not write.
func resultsOrNew(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.Size() == 0 {
		return nil
	}
	if _, err := bench.ReadFiles(nil, path); err != nil {
		msg := fmt.Sprintf("%s is not a soko bench results file (%v): soko does not overwrite it; give a new file or one soko bench wrote", path, err)
		if notResults(err) {
			return usageError{msg: msg}
		}
		return errors.New(msg)
	}
	return nil
}
