package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"soko/internal/ctxio"
	"soko/internal/english"
	"soko/internal/progress"
	"soko/levels"
	"soko/optimize"
	"soko/sokfile"
	"soko/solver"
	"soko/verify"
)

// readSok reads a .sok file named on the command line: one that does not
// exist is a usage error, as for other inputs.
func readSok(ctx context.Context, cmd, path string) (*sokfile.File, error) {
	f, err := ctxio.Open(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
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

// sokOut is soko solve's --out file: the .sok file as it was (or a new
// one) and what this run adds to it.
type sokOut struct {
	path   string
	file   *sokfile.File
	solver string // the "Solver:" of the solutions found
	levels int    // levels put in the file
	added  int    // solutions added
	left   []string
	used   map[*sokfile.Entry]bool // the entries given a level of this run
}

// openSokOut reads the --out file of soko solve if it exists, so that a
// file that is not a .sok collection is refused before any work.
func openSokOut(ctx context.Context, path string, c *solveConfig) (*sokOut, error) {
	if err := checkOut("solve", "--out", path); err != nil {
		return nil, err
	}
	o := &sokOut{path: path, solver: "soko " + c.algo, used: map[*sokfile.Entry]bool{}}
	if len(c.params) > 0 {
		o.solver += " (" + c.params.String() + ")"
	}
	f, err := readSok(ctx, "solve", path)
	var u usageError
	switch {
	case errors.As(err, &u):
		o.file = sokfile.New() // a new file
	case err != nil:
		return nil, fmt.Errorf("solve: --out: %w", err)
	default:
		o.file = f
	}
	return o, nil
}

// add puts a level's result in the file: the level, unless the file has
// its board (with its title, preferably) not yet given a level of this
// run, and its solution, unless the level has one at least as good in
// pushes and moves (one the new solution beats in both is replaced).
func (o *sokOut) add(e levels.Entry, r record) {
	if e.Unloadable != nil {
		o.left = append(o.left, e.ID())
		return
	}
	var entry *sokfile.Entry
	for _, m := range o.file.Matches(e.Level) {
		if !o.used[m] {
			entry = m
			break
		}
	}
	if entry == nil {
		entry = o.file.Append(e.Level)
	}
	o.used[entry] = true
	o.levels++
	if r.Error == "" && r.Status == solver.Solved && r.Solution != "" {
		if entry.Add(&sokfile.Solution{LURD: r.Solution, Solver: o.solver, Date: sokDate()}, true) {
			o.added++
		}
	}
}

// write writes the file in place and says what it holds.
func (o *sokOut) write(stderr io.Writer) error {
	if err := sokfile.WriteFile(o.path, o.file); err != nil {
		return fmt.Errorf("solve: --out: %w", err)
	}
	fmt.Fprintf(stderr, "solve: %s, %s new or better, in %s\n", english.Count(o.levels, "level", "levels"),
		english.Count(o.added, "solution", "solutions"), o.path)
	if len(o.left) > 0 {
		fmt.Fprintf(stderr, "solve: levels that cannot be loaded are not added to %s: %s\n", o.path, strings.Join(o.left, ", "))
	}
	return nil
}

// verifySok replays every solution of a .sok file: soko verify FILE.sok.
func verifySok(ctx context.Context, path string, stdout io.Writer) error {
	f, err := readSok(ctx, "verify", path)
	if err != nil {
		return err
	}
	total, bad := 0, 0
	for _, e := range f.Entries {
		id := levels.Entry{Level: e.Level, Unloadable: e.Unloadable}.ID()
		for _, s := range e.Solutions {
			total++
			where := fmt.Sprintf("%s: solution at line %d", id, s.Line)
			if e.Unloadable != nil {
				bad++
				fmt.Fprintf(stdout, "%s: level cannot be loaded: %v\n", where, e.Unloadable.Err)
				continue
			}
			rep, err := verify.Check(e.Level, s.LURD)
			switch {
			case err != nil:
				bad++
				fmt.Fprintf(stdout, "%s: %v\n", where, err)
			case rep.Solved:
				fmt.Fprintf(stdout, "%s: solved in %s, %s\n", where,
					english.Count(rep.Moves, "move", "moves"), english.Count(rep.Pushes, "push", "pushes"))
			case rep.FailStep > 0:
				bad++
				fmt.Fprintf(stdout, "%s: not solved: %s\n", where, rep.Reason)
			default:
				bad++
				fmt.Fprintf(stdout, "%s: not solved: after all its moves some boxes are off their goals\n", where)
			}
		}
	}
	if total == 0 {
		return fmt.Errorf("verify: %s has no solutions", path)
	}
	fmt.Fprintf(stdout, "%s: %d of %s solve their levels\n", path, total-bad, english.Count(total, "solution", "solutions"))
	if bad > 0 {
		return errSilent
	}
	return nil
}

// optimizeSok shortens the best solution of each level of a .sok file and
// writes the file in place: soko optimize FILE.sok. The optimized solution
// is added beside the old ones, or with --replace replaces those it is at
// least as good as in pushes and moves.
func optimizeSok(ctx context.Context, path string, c *optimizeConfig, stdout, stderr io.Writer) error {
	switch {
	case c.out != "":
		return usagef("optimize: FILE.sok is written in place; --out is for LEVEL SOLUTION and --from")
	case len(c.compare) > 0:
		return usagef("optimize: --compare needs --from")
	}
	if err := checkOut("optimize", "FILE.sok", path); err != nil {
		return err
	}
	f, err := readSok(ctx, "optimize", path)
	if err != nil {
		return err
	}
	var status io.Writer
	if progress.IsTerminal(stderr) {
		status = stderr
	}
	keep := *c
	keep.noLURD = false // the file needs the solutions
	enc := json.NewEncoder(stdout)
	done, failed, added := 0, 0, 0
	for _, e := range f.Entries {
		if ctx.Err() != nil {
			break
		}
		best := bestSolution(e, c.metric)
		if best == nil {
			continue
		}
		r := optimizeOne(ctx, optimizeJob{level: e.Level, lurd: best.LURD, solver: best.Solver}, &keep, status)
		done++
		lurd := r.Solution
		if c.noLURD {
			r.Solution = ""
		}
		if c.json {
			if err := enc.Encode(r); err != nil {
				return err
			}
		} else {
			printOptimized(stdout, r, c.noLURD)
		}
		if r.Error != "" {
			failed++
			continue
		}
		from := best.Solver
		if from == "" {
			from = "a solution"
		}
		if e.Add(&sokfile.Solution{LURD: lurd, Solver: "soko optimize --metric " + c.metric.String() + " (from " + from + ")", Date: sokDate()}, c.replace) {
			added++
		}
	}
	if added > 0 {
		if err := sokfile.WriteFile(path, f); err != nil {
			return fmt.Errorf("optimize: %w", err)
		}
	}
	w := stdout
	if c.json {
		w = stderr
	}
	fmt.Fprintf(w, "optimized %s for %s; %s new or better in %s\n", english.Count(done-failed, "solution", "solutions"),
		c.metric, english.Count(added, "solution", "solutions"), path)
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case done == 0:
		return fmt.Errorf("optimize: %s has no solution of a level that loads", path)
	case failed > 0:
		return errSilent
	}
	return nil
}

// bestSolution is the entry's shortest solution in m among those that
// solve its level, or nil.
func bestSolution(e *sokfile.Entry, m optimize.Metric) *sokfile.Solution {
	if e.Level == nil {
		return nil
	}
	var best *sokfile.Solution
	var bestScore optimize.Score
	for _, s := range e.Solutions {
		rep, err := verify.Check(e.Level, s.LURD)
		if err != nil || !rep.Solved {
			continue
		}
		sc := optimize.Score{Pushes: rep.Pushes, Moves: rep.Moves}
		if best == nil || m.Better(sc, bestScore) {
			best, bestScore = s, sc
		}
	}
	return best
}
