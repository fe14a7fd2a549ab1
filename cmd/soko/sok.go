package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"soko/bench"
	"soko/internal/ctxio"
	"soko/internal/english"
	"soko/internal/outfile"
	"soko/level"
	"soko/levels"
	"soko/sokfile"
	"soko/verify"
)

// readSok reads a .sok file named on the command line: one that does not
// exist is a usage error, as for other inputs.
func readSok(ctx context.Context, cmd, path string) (*sokfile.File, error) {
	f, err := ctxio.Open(ctx, path)
	if errors.Is(err, os.ErrNotExist) && path == "-" {
		return nil, usagef("%s: - (standard input) is not taken as a .sok file: give a file (want LEVEL SOLUTION or FILE.sok)", cmd)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, usagef("%s: no such .sok file %s (want LEVEL SOLUTION or FILE.sok)", cmd, path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sokfile.Read(f, path)
}

// sokDate is the "Date:" of a solution written now.
func sokDate() string { return time.Now().UTC().Format(time.RFC3339) }

// sokOut is the .sok file soko solve --out, soko bench --sok and soko
// optimize FILE.sok write: locked from before the work until it is
// written, and what this run adds to it. The file is read again under
// the lock when it is written and the additions merged into what it then
// holds, so that an edit made by hand while the run went on is kept.
type sokOut struct {
	cmd, flag string // for messages: "solve", "--out"
	path      string
	lock      *outfile.Lock
	read      *sokfile.File // the file as it was when locked
	replace   bool          // a solution added replaces those it beats in both pushes and moves
	adds      []sokAdd
	left      []string
	atStart   []string // levels of the run solved at their start: no moves, no solution section
	onlyAdded bool     // save writes the file only when a solution is new or better
	levels    int      // levels put in the file, by the last merge
	added     int      // solutions new or better, by the last merge
	dropped   int      // entries where --replace dropped worse solutions and added none, by the last merge
	games     int      // games in progress put in the file, by the last merge
}

// sokAdd is a level of the run, and a solution of it when LURD is set, or
// its game in progress when snap is set (soko play).
type sokAdd struct {
	level *level.Level
	sol   sokfile.Solution
	snap  *sokfile.Snapshot
}

// openSokOut locks the .sok file at path and reads it if it exists, so
// that a file that is not a .sok collection, or that another soko writes,
// is refused before any work. A file that exists must be empty or a level
// collection (kindLevels: text with at least one level, loadable or not),
// for it is rewritten as a .sok: a model, a results file, an image or
// notes are never merged into. The caller closes it.
func openSokOut(ctx context.Context, cmd, flag, path string) (*sokOut, error) {
	lock, err := takeOut(cmd, flag, path, kindLevels) // told streaming, before the file is read whole
	if err != nil {
		return nil, err
	}
	o := &sokOut{cmd: cmd, flag: flag, path: path, lock: lock, replace: true}
	o.read, err = readSokOut(ctx, cmd, flag, path)
	if err != nil {
		lock.Close()
		return nil, err
	}
	return o, nil
}

// readSokOut reads the .sok output at path: an empty File when there is
// none yet, and a usage error when it is not a level collection
// (kindLevels).
func readSokOut(ctx context.Context, cmd, flag, path string) (*sokfile.File, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return sokfile.New(), nil
	}
	fh, err := ctxio.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", cmd, flag, err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, kindLevels.limit))
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", cmd, flag, path, err)
	}
	if err := kindLevels.check(cmd, flag, path, data); err != nil {
		return nil, err
	}
	f, err := sokfile.Read(bytes.NewReader(data), path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %w", cmd, flag, err) // sokfile's errors begin with path
	}
	return f, nil
}

// close releases the lock.
func (o *sokOut) close() error { return o.lock.Close() }

// add puts a level and its solution, if it has one, in what this run adds
// to the file (merge says where).
func (o *sokOut) add(e levels.Entry, lurd, solverName string) {
	if e.Unloadable != nil {
		if !slices.Contains(o.left, e.ID()) {
			o.left = append(o.left, e.ID())
		}
		return
	}
	o.adds = append(o.adds, sokAdd{level: e.Level, sol: sokfile.Solution{LURD: lurd, Solver: solverName, Date: sokDate()}})
	if lurd == "" && solvedAtStart(e.Level) && !slices.Contains(o.atStart, e.ID()) {
		o.atStart = append(o.atStart, e.ID())
	}
}

// addSnapshot puts the game in progress on l in what this run adds to the
// file: it replaces the level's snapshot of the same name, and one without
// moves (a game solved, or back at its start) only drops it, from a level
// the file holds already.
func (o *sokOut) addSnapshot(l *level.Level, snap *sokfile.Snapshot) {
	o.adds = append(o.adds, sokAdd{level: l, snap: snap})
}

// solvedAtStart tells whether every box of l is on a goal already: its
// solution has no moves, and a .sok has no section for it (a heading
// with no moves under it is text), so the level goes in without one.
func solvedAtStart(l *level.Level) bool {
	rep, err := verify.Check(l, "")
	return err == nil && rep.Solved
}

// merge reads the file again and puts this run's additions in it. A level
// goes to the first entry with its board (with its title, preferably) not
// yet given a level of this run, or at the end; a solution is added unless
// the level has one at least as good in pushes and moves, and (replace)
// replaces those it beats in both. The error says why the file now at
// the path cannot be merged into.
func (o *sokOut) merge() (*sokfile.File, error) {
	f, err := o.readNow()
	if err != nil {
		return nil, err
	}
	o.mergeInto(f)
	return f, nil
}

// readNow reads the file the path names now, to merge into: an empty
// File when it was removed, and an error saying why not when it is no
// longer a level collection this user may replace (another kind of file,
// a read-only one, one that cannot be read).
func (o *sokOut) readNow() (*sokfile.File, error) {
	st, err := os.Stat(o.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return sokfile.New(), nil // removed meanwhile: made again
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is no longer a regular file", o.path) // a FIFO would never end the read
	}
	if err := outfile.CheckReplace(o.path); err != nil {
		return nil, err // read-only, as checked before the work
	}
	data, err := readExisting(o.path, kindLevels.limit) // as much as sokfile.Read takes
	if err != nil {
		return nil, err
	}
	if kindLevels.check(o.cmd, o.flag, o.path, data) != nil { // as the check before the work
		return nil, fmt.Errorf("%s is not a level file now: it holds %s", o.path, kindLevels.seems(data))
	}
	f, err := sokfile.Read(bytes.NewReader(data), o.path)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read as a .sok file: %w", o.path, err)
	}
	return f, nil
}

// mergeInto puts this run's additions in f (merge).
func (o *sokOut) mergeInto(f *sokfile.File) {
	used := map[*sokfile.Entry]bool{}
	entries := map[*level.Level]*sokfile.Entry{}
	o.levels, o.added, o.games, o.dropped = 0, 0, 0, 0
	for _, a := range o.adds {
		entry := entries[a.level]
		if entry == nil {
			for _, m := range f.Matches(a.level) {
				if !used[m] {
					entry = m
					break
				}
			}
			if entry == nil && a.snap != nil && a.snap.LURD == "" {
				continue // nothing to drop
			}
			if entry == nil {
				entry = f.Append(titled(a.level))
			}
			used[entry], entries[a.level] = true, entry
			o.levels++
		}
		if a.snap != nil {
			entry.PutSnapshot(a.snap)
			if a.snap.LURD != "" {
				o.games++
			}
			continue
		}
		sol := a.sol
		before := len(entry.Solutions)
		if sol.LURD != "" && entry.Add(&sol, o.replace) {
			o.added++
		} else if len(entry.Solutions) < before {
			o.dropped++ // --replace: the best was there already, worse ones go
		}
	}
}

// titled is l with the title every level soko adds to a .sok file is
// written with (levels.Title): its own, or its collection's name and
// number ("Microban 1"), so that a reader showing titles tells the levels
// apart. The web page's .sok download writes the same.
func titled(l *level.Level) *level.Level {
	t := *l
	t.Title = levels.Title(l)
	return &t
}

// sokSaveWait is how long a save waits for another soko that holds the
// file now at the path (one renamed over it while this run went on)
// before it writes this run's solutions to a file beside it instead.
var sokSaveWait = 10 * time.Second

// save merges this run's additions into the file and writes it in place,
// under the lock of the file the path names now (outfile.Lock.Current):
// one renamed over it while the run went on is locked before it is read.
// This run's levels and solutions are never dropped: when the file now
// there cannot take them (another soko holds it past sokSaveWait, or
// until an interrupt; it is another kind of file, read-only or
// unreadable), they go to NAME.soko-PID.sok beside it (saveAside) and
// save fails naming it. An interrupted run does not wait.
func (o *sokOut) save(ctx context.Context, stderr io.Writer) error {
	replaced, err := o.lock.Current(ctx, sokSaveWait, func(b *outfile.BusyError) {
		fmt.Fprintf(stderr, "%s: %s %s was replaced by another file while this run went on, and %s writes the new one: waiting up to %s for it to end (an interrupt stops the wait)\n",
			o.cmd, o.flag, o.path, b.Holder(), sokSaveWait)
	})
	var busy *outfile.BusyError
	if errors.As(err, &busy) {
		return o.saveAside(ctx, stderr, fmt.Sprintf("it was replaced by another file, which %s writes", busy.Holder()))
	}
	if err != nil {
		return o.saveAside(ctx, stderr, err.Error())
	}
	_, gone := os.Stat(o.path)
	f, err := o.merge()
	if err != nil {
		return o.saveAside(ctx, stderr, err.Error())
	}
	switch {
	case replaced && gone != nil:
		fmt.Fprintf(stderr, "%s: %s %s was removed while this run went on: it is made again, with this run's solutions\n", o.cmd, o.flag, o.path)
	case replaced:
		fmt.Fprintf(stderr, "%s: %s %s was replaced by another file while this run went on: this run's solutions are merged into the new one\n", o.cmd, o.flag, o.path)
	}
	if o.onlyAdded && o.added == 0 && o.dropped == 0 {
		return nil
	}
	if err := sokfile.WriteFile(o.path, f); err != nil { // through o.lock, which this process holds
		return o.saveAside(ctx, stderr, err.Error())
	}
	return nil
}

// saveAside writes this run's levels and solutions to sideSok(o.path),
// the file at o.path being one they cannot be merged into (why), and
// returns the error that says so, printed on stderr already (sideError):
// the run's other errors, such as the errSilent of a level that failed,
// or an interrupt's, must not hide where the solutions went.
func (o *sokOut) saveAside(ctx context.Context, stderr io.Writer, why string) error {
	side := sideSok(o.path)
	f := sokfile.New()
	o.mergeInto(f)
	var err error
	if werr := sokfile.WriteFile(side, f); werr != nil {
		err = fmt.Errorf("%s: %s %s cannot take this run's solutions now (%s); writing them to %s instead failed too: %w",
			o.cmd, o.flag, o.path, why, side, werr)
	} else {
		err = fmt.Errorf("%s: %s %s cannot take this run's solutions now (%s): not merged there; this run's %s and %s are in %s instead",
			o.cmd, o.flag, o.path, why, english.Count(o.levels, "level", "levels"), english.Count(o.added, "solution", "solutions"), side)
	}
	fmt.Fprintf(stderr, "soko: %v\n", err)
	if ctx.Err() != nil {
		return errors.Join(errInterrupted, sideError{err})
	}
	return sideError{err}
}

// sideError is the error of saveAside, said on stderr already: exit
// status 1 without printing it again (errSilent).
type sideError struct{ error }

func (sideError) Is(target error) bool { return target == errSilent }

// sideSok is NAME.soko-PID.sok beside the .sok file at path (NAME.sok, or
// NAME), where saveAside puts a run's solutions.
func sideSok(path string) string {
	name := filepath.Base(path)
	if ext := filepath.Ext(name); strings.EqualFold(ext, ".sok") {
		name = strings.TrimSuffix(name, ext)
	}
	return filepath.Join(filepath.Dir(path), fmt.Sprintf("%s.soko-%d.sok", name, os.Getpid()))
}

// write writes the file in place and says what it holds.
func (o *sokOut) write(ctx context.Context, stderr io.Writer) error {
	if err := o.save(ctx, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: %s, %s new or better, in %s\n", o.cmd, english.Count(o.levels, "level", "levels"),
		english.Count(o.added, "solution", "solutions"), o.path)
	if n := len(o.atStart); n > 0 {
		what := "level is solved at its start (0 moves): it has"
		if n > 1 {
			what = "levels are solved at their start (0 moves): they have"
		}
		fmt.Fprintf(stderr, "%s: %d %s no solution in %s, a .sok solution being moves: %s\n", o.cmd, n, what, o.path, strings.Join(o.atStart, ", "))
	}
	if len(o.left) > 0 {
		fmt.Fprintf(stderr, "%s: levels that cannot be loaded are not added to %s: %s\n", o.cmd, o.path, strings.Join(o.left, ", "))
	}
	return nil
}

// addSolveResult puts a result of soko solve in its --out file. A
// solution the optimizer shortened says so in its "Solver:": "soko fess,
// optimized for pushes".
func (o *sokOut) addSolveResult(e levels.Entry, r record, c *solveConfig) {
	lurd := ""
	if r.Error == "" && r.Status == solvedStatus {
		lurd = r.Solution
	}
	metric := ""
	if r.Optimizer == "complete" || r.Optimizer == "stopped" {
		metric = c.opt.String()
	}
	o.add(e, lurd, sokfile.SolverNote(c.algo, c.params, metric))
}

// entriesByID maps the ids of levels in results (bench.Record.Level) to
// the levels; the first of an id is kept.
func entriesByID(es []levels.Entry) map[string]levels.Entry {
	m := make(map[string]levels.Entry, len(es))
	for _, e := range es {
		if _, ok := m[e.ID()]; !ok {
			m[e.ID()] = e
		}
	}
	return m
}

// addRecord puts a run of soko bench in its --sok file: the level, and the
// solution when the run solved it. Its "Solver:" is soko solve --out's
// (sokfile.SolverNote: "soko wastar (w=200)", with ", optimized for
// pushes" when the optimizer ran), or an external solver's name.
func (o *sokOut) addRecord(byID map[string]levels.Entry, rec bench.Record) {
	e, ok := byID[rec.Level]
	if !ok {
		return
	}
	lurd := ""
	if rec.Solved() {
		lurd = rec.Solution
	}
	var name string
	switch {
	case rec.External != "":
		name = rec.Solver
	case rec.FoundMoves > 0 && rec.Optimize == "moves":
		name = sokfile.SolverNote(rec.Solver, rec.Params, "moves")
	case rec.FoundMoves > 0:
		name = sokfile.SolverNote(rec.Solver, rec.Params, "pushes")
	default:
		name = sokfile.SolverNote(rec.Solver, rec.Params, "")
	}
	o.add(e, lurd, name)
}
