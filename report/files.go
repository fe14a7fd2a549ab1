package report

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"soko/internal/outfile"
)

// reportFiles are the files of a report with OutDir, made in memory
// before any is written, so that each is checked (outfile.Check: a
// regular file the user may write, or a new one) before the first is
// written: a report stopped by a read-only report.md must not leave
// the folder half new, half old.
type reportFiles struct {
	dir   string
	names []string
	data  map[string][]byte
	ctx   context.Context // its end stops the plots (addPlot)
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

// stale returns the plots in the folder that this report does not make
// (an earlier report's, of other solvers or collections), sorted.
func (r *reportFiles) stale() []string {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return nil // a new folder
	}
	var out []string
	for _, e := range entries {
		ext := strings.TrimPrefix(filepath.Ext(e.Name()), ".")
		if _, ours := r.data[e.Name()]; !ours && e.Type().IsRegular() && slices.Contains(plotFormats, ext) {
			out = append(out, e.Name())
		}
	}
	return out
}

// RefusedError is a report not written because a file of OutDir may not
// be written over: one the user cannot write, or one of another kind. It
// is the caller's to fix (another folder), not a failure of the report.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// check refuses, naming it, the first file that cannot be written.
func (r *reportFiles) check() error {
	if _, err := os.Stat(r.dir); err != nil {
		return nil // a new folder: every file is new (the caller checked its parent)
	}
	for _, name := range r.names {
		path := filepath.Join(r.dir, name)
		if err := outfile.Check(path); err != nil {
			return &RefusedError{fmt.Errorf("%w; no file of the report was written", err)}
		}
		if err := r.own(path, r.data[name]); err != nil {
			return &RefusedError{err}
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
