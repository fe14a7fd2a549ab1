package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"soko/internal/outfile"
	"soko/levels"
)

// checkOut refuses, as a usage error and before any work, an output path
// of cmd's flag that exists and is not a regular file the user may write,
// or whose folder does not exist or does not take a new file (package
// outfile says why).
func checkOut(cmd, flag, path string) error {
	if path == "" {
		return nil
	}
	if err := outfile.Check(path); err != nil {
		return usagef("%s: %s %v", cmd, flag, err)
	}
	return nil
}

// takeOut checks and locks, before any work, a file of cmd's flag that is
// written whole at the end (a model, a plot, a .sok collection), so that
// a file that cannot be written fails at once, not after hours, and no
// other soko writes it meanwhile; a file there that is not empty must be
// of kind k (sameKind; kindAny: the caller checks it). The caller closes
// the lock once written; writes to path through package outfile go
// through it.
func takeOut(cmd, flag, path string, k fileKind) (*outfile.Lock, error) {
	if err := outfile.CheckReplace(path); err != nil {
		return nil, usagef("%s: %s %v", cmd, flag, err)
	}
	l, err := outfile.Take(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %w", cmd, flag, err)
	}
	if k.name != "" { // not kindAny
		if err := sameKind(cmd, flag, path, k); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// closeLocks releases locks taken by takeOut; nil ones are skipped.
func closeLocks(locks ...*outfile.Lock) {
	for _, l := range locks {
		if l != nil {
			l.Close()
		}
	}
}

// plotFormats are the file name extensions a plot can be written in
// (gonum's plot.WriterTo).
var plotFormats = []string{"eps", "jpeg", "jpg", "pdf", "png", "svg", "tex", "tif", "tiff"}

// checkPlot refuses, before any work, a plot file whose extension names
// no format a plot is written in, or that exists and is not a plot
// (kindPlot).
func checkPlot(cmd, flag, path string) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if path == "" {
		return nil
	}
	if slices.Contains(plotFormats, ext) {
		return sameKind(cmd, flag, path, kindPlot)
	}
	return usagef("%s: %s %s: the extension gives the format; want one of .%s", cmd, flag, path, strings.Join(plotFormats, ", ."))
}

// output is an output flag of a command and its path.
type output struct{ flag, path string }

// notAnInput refuses, as a usage error before any work, an output that is
// the same file as one of the run's inputs: the files of the level specs
// and the other files it reads (a model, a solution), and standard input
// when a spec or an input is "-" (an output /dev/stdin, /proc/self/fd/0,
// or the file the shell gave as standard input). Only files that exist
// are compared (os.SameFile: a link or another spelling of the path is the
// same file).
func notAnInput(cmd string, stdin io.Reader, specs, inputs []string, outs ...output) error {
	type input struct {
		name string
		st   fs.FileInfo
	}
	var ins []input
	readsStdin := slices.Contains(inputs, "-")
	for _, s := range specs {
		if f, ok := levels.File(s); ok {
			inputs = append(inputs, f)
		}
		readsStdin = readsStdin || levels.Stdin(s)
	}
	for _, in := range inputs {
		if st, err := os.Stat(in); err == nil && in != "-" {
			ins = append(ins, input{in, st})
		}
	}
	if f, ok := stdin.(*os.File); ok && readsStdin {
		if st, err := f.Stat(); err == nil {
			ins = append(ins, input{"standard input", st})
		}
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		ost, err := os.Stat(o.path)
		if err != nil {
			continue
		}
		for _, in := range ins {
			if os.SameFile(ost, in.st) {
				return usagef("%s: %s %s is also an input of this run (%s): soko does not write over what it reads; give another file", cmd, o.flag, o.path, in.name)
			}
		}
	}
	return nil
}

// sokLevelSpecs are the level specs a .sok output (solve --out, bench
// --sok) is compared with by notAnInput: none when the file it makes is
// named .sok, for a .sok collection solved into itself is merged, its
// levels and solutions kept; every spec otherwise, so that a level file
// (lv.xsb) is never rewritten as a .sok.
func sokLevelSpecs(path string, specs []string) []string {
	if strings.EqualFold(filepath.Ext(outfile.Target(path)), ".sok") {
		return nil
	}
	return specs
}

// notAnInputSok is notAnInput for a .sok output: one that names a level
// file of the run is refused, unless it is named .sok (sokLevelSpecs).
func notAnInputSok(cmd string, stdin io.Reader, specs, inputs []string, out output) error {
	if err := notAnInput(cmd, stdin, nil, inputs, out); err != nil {
		return err
	}
	if err := notAnInput(cmd, stdin, sokLevelSpecs(out.path, specs), nil, out); err != nil {
		return usagef("%v (only a collection named .sok is solved into itself, merged)", err)
	}
	return nil
}

// distinctOutputs refuses, as a usage error before any work, two outputs
// of one run that are the same file.
func distinctOutputs(cmd string, outs ...output) error {
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if a.path != "" && b.path != "" && sameOutput(a.path, b.path) {
				return usagef("%s: %s and %s are the same file %s: give each its own", cmd, a.flag, b.flag, a.path)
			}
		}
	}
	return nil
}

// sameOutput tells whether paths a and b name one file: the same file if
// both exist, else the same file to be made (outfile.Target: the absolute
// path with symbolic links followed, one that points to no file yet
// included).
func sameOutput(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(sa, sb)
	}
	return outfile.Target(a) == outfile.Target(b)
}

// errWriter is a writer that keeps its first error, for writers whose
// user drops them (runtime/pprof's CPU profile).
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = errors.New("short write")
	}
	e.err = err
	return n, err
}

// createOutput creates a file written as the run goes (a trace, a
// profile), locked: outfile.Create. Tests put a writer that fails here.
var createOutput = func(path string) (io.WriteCloser, error) { return outfile.Create(path) }

// missing tells whether no file is at path yet (a link that points to
// none included), so that a file this run makes there can be taken away
// again (dropEmpty).
func missing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// dropEmpty removes the file at path when this run made it (made), a write
// to it failed (failed is not nil) and it is still empty, as on a full
// disk, so that a failed run leaves no empty profile, trace or results
// file behind. It is called before the file is closed, while this run
// holds its lock.
func dropEmpty(path string, made bool, failed error) {
	if !made || failed == nil {
		return
	}
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		os.Remove(outfile.Target(path)) // the file made; a link to it is kept
	}
}

// gzipped tells whether a results file's name says it is gzipped: such a
// file is read through gzip everywhere, written gzipped by bench merge
// --out, which writes the whole file, and refused by bench --out and
// optimize --out, which append to it (notGzip).
func gzipped(path string) bool { return strings.HasSuffix(path, ".gz") }

// notGzip refuses, as a usage error before any work, a .gz name for an
// output that soko appends JSON lines to as it goes: a gzip stream cannot
// be resumed or trimmed by appending to it.
func notGzip(cmd, flag, path string) error {
	if !gzipped(path) {
		return nil
	}
	plain := strings.TrimSuffix(path, ".gz")
	return usagef("%s: %s %s: soko writes plain JSON lines to %s, appended as it goes, which a gzip file cannot take; give %s and gzip it afterwards (report, bench merge and optimize --from read .gz, and bench merge --out FILE.gz writes one)", cmd, flag, path, flag, plain)
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
