package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"

	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/internal/outfile"
)

// optimizeOut is the --out file: one JSON line per optimized solution,
// appended, and the keys of those already in it, which a run again skips.
// Like bench's results (bench.Results), it follows its path when another
// file is renamed over it: before each write, the file now at the path is
// taken (locked, recognised as optimize's) and given the lines this run
// wrote to the old one that it lacks, and stderr is told; where it cannot
// be, the write fails, naming the file and the results lost with the old
// one.
type optimizeOut struct {
	path   string
	f      *os.File
	done   map[string]bool
	mine   []outfile.Line // the results this run wrote to f
	stderr io.Writer
}

func openOptimizeOut(path string) (*optimizeOut, error) {
	f, err := outfile.OpenAppend(path) // locked: one writer at a time
	if err != nil {
		return nil, err
	}
	o := &optimizeOut{path: path, f: f, done: map[string]bool{}}
	tail, err := jsonl.Records(f, path, optimizedPrefix, func(line []byte, _ int) error {
		r, err := parseOptimized(line)
		if err == nil && (r.Error == "" || r.Given == "") { // a given solution that failed fails again, and says why
			o.done[doneKey(r.Level, r.Solver, r.Run, r.Given)] = true
		}
		return err
	})
	if errors.Is(err, jsonl.ErrGzip) {
		err = fmt.Errorf("--out %s is gzip-compressed: optimize --out appends plain JSON lines; gunzip it first, or give a new file", path)
	}
	if err == nil {
		err = outfile.Trim(f, tail.Keep)
	}
	if err == nil && tail.Newline { // a last result without its newline: end it, not splice the next to it
		_, err = f.Write([]byte{'\n'})
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

// optimizedPrefix is how every line of an --out file begins (Level is
// optimized's first field); a last line that begins so but is not a result
// was cut short by a kill.
const optimizedPrefix = `{"level":"`

// parseOptimized reads one line of an --out file: a result of soko
// optimize has a level and a metric and no key, which a record of soko
// bench has.
func parseOptimized(line []byte) (optimized, error) {
	var r optimized
	if err := json.Unmarshal(line, &r); err != nil || r.Level == "" || r.Metric == "" || jsonl.KindOf(line) == jsonl.Bench {
		what := "not a result of soko optimize"
		if jsonl.KindOf(line) == jsonl.Bench {
			what = "a record of soko bench, not a result of soko optimize"
		}
		return optimized{}, fmt.Errorf("%s; give --out a new file or one soko optimize wrote", what)
	}
	return r, nil
}

// File is the open --out file, as outfile.Follow takes it.
func (o *optimizeOut) File() *os.File { return o.f }

// Done reports whether the result with this key (doneKey) is in the file.
func (o *optimizeOut) Done(key string) bool { return o.done[key] }

// has reports whether the file holds job j's result: by its key, or, for
// a job of --from, by its level and solver, as a result without run (an
// older soko's) is kept.
func (o *optimizeOut) has(j optimizeJob) bool {
	return o.done[j.key()] || j.given == "" && o.done[doneKey(levelID(j.level), j.solver, "", "")]
}

// write appends one result as one line, so that the file holds whole
// results whenever the process stops.
func (o *optimizeOut) write(r optimized) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := o.follow(); err != nil {
		return err
	}
	off, err := o.f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = o.f.Write(append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("optimize: writing --out %s: %w", o.path, err)
	}
	o.mine = append(o.mine, outfile.Line{Off: off, Len: len(b) + 1, Key: doneKey(r.Level, r.Solver, r.Run, r.Given)})
	return nil
}

// follow takes the file now at the path when it is not the one held
// (optimizeOut).
func (o *optimizeOut) follow() error {
	lost := func(n int) string {
		if n == 0 {
			return "every result this run wrote is in the new file"
		}
		return fmt.Sprintf("%s this run wrote went only to the old file, gone with it, and will be optimized again on a run again", english.Count(n, "result", "results"))
	}
	no, copied, err := outfile.Follow(o.f, o.path, o.mine, openOptimizeOut)
	var copyErr *outfile.CopyError
	switch {
	case errors.Is(err, outfile.ErrRemoved):
		return fmt.Errorf("optimize: --out %s was removed while this run wrote it; %s", o.path, lost(len(o.mine)))
	case errors.As(err, &copyErr):
		return fmt.Errorf("optimize: --out %s was replaced while this run wrote it, and copying its results to the new file failed: %w; %s", o.path, copyErr.Err, lost(copyErr.Missing))
	case err != nil:
		return fmt.Errorf("optimize: --out %s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it, and the new one cannot be taken: %w; %s", o.path, err, lost(len(o.mine)))
	case no == nil:
		return nil
	}
	o.f, o.mine = no.f, nil
	maps.Copy(o.done, no.done)
	note := ""
	if copied > 0 {
		note = fmt.Sprintf(", after putting there the %s written by this run that it lacked", english.Count(copied, "result", "results"))
	}
	fmt.Fprintf(o.stderr, "optimize: --out %s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it; writing on to the new file%s\n", o.path, note)
	return nil
}

func (o *optimizeOut) close() error { return o.f.Close() }
