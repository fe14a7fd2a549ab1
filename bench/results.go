package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sync"

	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/internal/outfile"
)

// Results is an open results file that runs are appended to, one whole line
// per write, so that the file is valid JSONL whenever the process stops.
//
// Before each write it checks that its path still names the file it
// holds: a file renamed over it (an editor, sed -i, cp and mv) would
// otherwise take every later record to the old file, unlinked, and the
// lock with it. It then follows the path: it takes the new file as
// OpenResults does (locked, recognised as records), appends to it the
// records this process wrote that it lacks, says so through Notify, and
// writes on there. Where it cannot (the file was removed, another process
// holds the new one, or it is not a results file) the write fails with a
// ReplacedError counting the runs that went only to the old file.
type Results struct {
	mu     sync.Mutex
	path   string
	f      *os.File
	done   map[string]bool
	levels []RecordedLevel // the levels of the runs in the file when it was opened, each once
	n      int
	cut    int
	mine   []outfile.Line // the records this process wrote to f since it took it
	Notify func(string)   // told when the file was replaced and followed; may be nil
}

// ReplacedError is a write refused because the results file was replaced
// or removed while the run wrote it, and the new one cannot be taken.
type ReplacedError struct {
	Path    string
	Removed bool
	Lost    int   // runs of this process that are only in the old file
	Err     error // why the new file cannot be taken; nil when removed
}

func (e *ReplacedError) Error() string {
	lost := "every run written by this run is in the new file"
	if e.Lost > 0 {
		lost = fmt.Sprintf("%s written by this run went only to the old file, gone with it, and will be run again", english.Count(e.Lost, "run", "runs"))
	}
	if e.Removed {
		return fmt.Sprintf("%s was removed while this run wrote it; %s", e.Path, lost)
	}
	return fmt.Sprintf("%s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it, and the new one cannot be taken: %v; %s", e.Path, e.Err, lost)
}

func (e *ReplacedError) Unwrap() error { return e.Err }

// OpenResults opens or creates the results file at path for appending. A
// file that holds anything but soko bench records (blank lines aside) is
// refused, untouched: a gzip file, and one whose only line is a record cut
// short, too. The runs already in it are remembered (Done); a last record
// cut short by a killed process after whole ones (jsonl.Records) is cut
// off, and a last record without its newline is given one.
func OpenResults(path string) (*Results, error) {
	if err := outfile.Check(path); err != nil {
		return nil, err
	}
	f, err := outfile.OpenAppend(path) // locked: one writer at a time
	if err != nil {
		return nil, err
	}
	recs, _, tail, err := readRecordsAt(context.Background(), f, path)
	if errors.Is(err, jsonl.ErrGzip) {
		f.Close()
		return nil, fmt.Errorf("%s is gzip-compressed: bench --out appends plain JSON lines; gunzip it first, or give a new file", path)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w; --out takes a new file or one soko bench wrote", err)
	}
	if err := outfile.Trim(f, tail.Keep); err != nil {
		f.Close()
		return nil, err
	}
	if tail.Newline { // a last record without its newline: end it, not splice the next to it
		if _, err := f.Write([]byte{'\n'}); err != nil {
			f.Close()
			return nil, err
		}
	}
	done := make(map[string]bool, len(recs))
	for _, r := range recs {
		done[r.Key] = true
	}
	return &Results{path: path, f: f, done: done, levels: RecordedLevels(recs), n: len(recs), cut: tail.Cut}, nil
}

// Cut is the line of the record cut short that OpenResults cut off, 0 if
// none.
func (r *Results) Cut() int { return r.cut }

// Done reports whether the run with this key is in the file.
func (r *Results) Done(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done[key]
}

// Levels returns the levels of the runs the file held when it was
// opened, each once.
func (r *Results) Levels() []RecordedLevel { return r.levels }

// RecordedLevel is a level the runs of a results file ran: its id and
// its board's hash (Record.Level, Record.LevelHash).
type RecordedLevel struct{ ID, Hash string }

// RecordedLevels returns the levels of recs, each once, in the order they
// first occur.
func RecordedLevels(recs []Record) []RecordedLevel {
	var out []RecordedLevel
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.Level] {
			seen[r.Level] = true
			out = append(out, RecordedLevel{r.Level, r.LevelHash})
		}
	}
	return out
}

// File is the open results file, as outfile.Follow takes it.
func (r *Results) File() *os.File { return r.f }

// Keys returns the keys of the runs in the file.
func (r *Results) Keys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Collect(maps.Keys(r.done))
}

// Len is the number of runs in the file.
func (r *Results) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Write appends one record as one line and syncs nothing: the line is in
// the kernel once Write returns, which survives the process being killed.
// A file replaced meanwhile is followed first (Results).
func (r *Results) Write(rec Record) error {
	b, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.follow(); err != nil {
		return err
	}
	if r.done[rec.Key] {
		return nil
	}
	off, err := r.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if _, err := r.f.Write(b); err != nil {
		return err
	}
	r.mine = append(r.mine, outfile.Line{Off: off, Len: len(b), Key: rec.Key})
	r.done[rec.Key] = true
	r.n++
	return nil
}

// Settle follows the file once more after the last write, so that a
// record written as the file was being replaced reaches the new one.
func (r *Results) Settle() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.follow()
}

// follow takes the file now at the path when it is not the one held
// (Results), with r.mu held.
func (r *Results) follow() error {
	if r.f == nil {
		return errors.New("results file already closed")
	}
	nr, copied, err := outfile.Follow(r.f, r.path, r.mine, OpenResults)
	var copyErr *outfile.CopyError
	switch {
	case errors.Is(err, outfile.ErrRemoved):
		return &ReplacedError{Path: r.path, Removed: true, Lost: len(r.mine)}
	case errors.As(err, &copyErr):
		return &ReplacedError{Path: r.path, Lost: copyErr.Missing, Err: copyErr.Err}
	case err != nil:
		return &ReplacedError{Path: r.path, Lost: r.lostTo(r.path), Err: err}
	case nr == nil:
		return nil
	}
	r.f, r.cut = nr.f, 0
	for k := range nr.done {
		r.done[k] = true
	}
	r.n = nr.n + copied
	r.mine = nil // all in the new file now; those written next are counted anew
	if r.Notify != nil {
		note := ""
		if copied > 0 {
			note = fmt.Sprintf(", after putting there the %s written by this run that it lacked", english.Count(copied, "record", "records"))
		}
		r.Notify(fmt.Sprintf("%s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it; writing on to the new file%s", r.path, note))
	}
	return nil
}

// Close closes the file.
func (r *Results) Close() error {
	if r.f == nil {
		return errors.New("results file already closed")
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// JSONLWriter writes records as JSON lines to any writer, such as stdout.
type JSONLWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewJSONLWriter returns a sink writing to w.
func NewJSONLWriter(w io.Writer) *JSONLWriter { return &JSONLWriter{w: w} }

// Write writes one record as one line.
func (j *JSONLWriter) Write(rec Record) error {
	b, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err = j.w.Write(append(b, '\n'))
	return err
}

// lostTo counts the records this process wrote to the file it holds that
// the file now at path lacks: all of them when it cannot be read as
// results.
func (r *Results) lostTo(path string) int {
	f, err := jsonl.Open(path)
	if err != nil {
		return len(r.mine)
	}
	defer f.Close()
	recs, _, _, err := readRecordsAt(context.Background(), f, path)
	if err != nil {
		return len(r.mine)
	}
	there := make(map[string]bool, len(recs))
	for _, rec := range recs {
		there[rec.Key] = true
	}
	lost := 0
	for _, w := range r.mine {
		if !there[w.Key] {
			lost++
		}
	}
	return lost
}
