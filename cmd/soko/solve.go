package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"soko/bench"
	"soko/internal/english"
	"soko/internal/parallel"
	"soko/internal/progress"
	"soko/level"
	"soko/levels"
	"soko/optimize"
	"soko/solve"
	"soko/solver"
)

type solveConfig struct {
	algo    string
	budget  solver.Budget
	seed    uint64
	params  paramsValue
	model   string
	workers int
	threads int
	json    bool
	verbose bool // -v: every counter of the result
	noLURD  bool
	profile profileFiles
	opt     solve.Policy  // --optimize, --metric
	out     string        // --out FILE.sok
	sok     *sokOut       // the --out file, once open
	trace   string        // --trace FILE
	tracer  *solver.Trace // writes to it while the levels are solved
	flags   *flag.FlagSet // the set that fills c: which flags were given
}

const solveDoc = `Solves each level with one solver and prints, in level order as they
finish, one line: its status, pushes and moves (– when unsolved), time and
states expanded, then the solution in LURD (-v: the solver's counters
too). The solver gets the whole --time; its solution is then shortened by
the optimizer in a time of its own (--optimize-time; --optimize off: the
solver's own). The solution found is told at once, on stderr ("found 153
pushes, 587 moves in 0.21s; optimizing…"; with --json a record with
"phase":"found" before the level's final one), and on a terminal the
progress line shows the optimizer shortening it; Ctrl-C then stops it and
keeps the shortest so far. Every solution is replayed by the independent
verifier before it is printed. --memory 0 means no memory limit; without
--memory a third of physical memory is shared by the workers.
`

func solveFlags() (*flag.FlagSet, *solveConfig) {
	c := &solveConfig{}
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	c.flags = fs
	fs.StringVar(&c.algo, "algo", "fess", "run solver `NAME` (see 'soko solvers'): fess, the default, solves the most; astar finds push-optimal solutions")
	c.budget.Time = 10 * time.Second
	fs.Var(durationValue{&c.budget.Time}, "time", "time limit `D` per level, e.g. 500ms, 10s, 2m (0: none)")
	fs.Var(countValue{&c.budget.Nodes}, "nodes", "limit of `N` states expanded per level (0: none)")
	fs.Var(countValue{&c.budget.Iterations}, "iterations", "limit of `N` iterations per level, for the solvers that count iterations (0: none)")
	fs.Var(sizeValue{&c.budget.Memory}, "memory", "memory limit `SIZE` per level, e.g. 512MiB, 4GiB (0: none; default: a third of physical memory shared by the workers)")
	c.seed = 1
	fs.Var(seedValue{&c.seed}, "seed", "random seed `N` for randomised solvers; equal seeds give equal runs")
	alias(fs, "seeds", "seed")
	c.params = paramsValue{}
	fs.Var(c.params, "param", "solver parameter `NAME=VALUE` (repeatable; see 'soko solvers')")
	for _, name := range []string{"w", "p", "c"} {
		fs.Var(paramValue{c.params, name}, name, "shorthand for --param "+name+"=`VALUE`")
	}
	fs.StringVar(&c.model, "model", "", "model `FILE` for the solvers that read one (alphazero, mcts-dist, greedy-dist, puct, lts; fess's learned guide)")
	fs.Var(workersValue{&c.workers}, "j", "`N` CPU slots: one-thread levels solved at once; a level with --threads T takes T of them (default: one per core)")
	c.workers = runtime.NumCPU() // after fs.Var, so that help does not print this machine's count
	fs.Var(workersValue{&c.threads}, "threads", "let a portfolio solver (fess, portfolio) run up to `N` strategies of each level side by side (default: for fess under a time limit alone, the slots the levels leave idle, at most "+strconv.Itoa(maxAutoThreads)+"; else 1, so that a seed repeats its run)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per level (JSONL), and one when a solution is found before the optimizer runs; the summary goes to stderr")
	fs.BoolVar(&c.verbose, "v", false, "print every counter of each result: the solver's own, the solution found and the optimizer's time")
	fs.BoolVar(&c.noLURD, "no-solution", false, "do not print the solutions")
	fs.StringVar(&c.trace, "trace", "", "write where each search's time went to `FILE`, as JSONL (fess writes it; other solvers ignore it)")
	c.profile.register(fs)
	policyFlags(fs, &c.opt)
	optimizeTimeFlag(fs, &c.opt)
	fs.StringVar(&c.out, "out", "", "write the levels with their solutions to `FILE.sok`; solved again into it, a solution is added or replaces a worse one, never repeated")
	return fs, c
}

// solvedStatus is a solved record's status.
var solvedStatus = solver.Solved.String()

// record is one level's result, as printed by --json.
type record struct {
	// Phase is "found" in the record of the solver's verified solution,
	// written the moment it is found when the optimizer is to run; the
	// level's final record has none.
	Phase     string      `json:"phase,omitempty"`
	Level     string      `json:"level"`
	Title     string      `json:"title,omitempty"`
	LevelHash string      `json:"level_hash,omitempty"` // the board's hash (bench.LevelHash), so that optimize --from can check a record against its level
	Algo      string      `json:"algo"`
	Status    string      `json:"status"` // a solver.Status name, or "error" (bench.StatusError) with Error
	Pushes    int         `json:"pushes"`
	Moves     int         `json:"moves"`
	SolveS    float64     `json:"solve_s"` // the search, to its verified answer
	Seconds   float64     `json:"wall_s"`  // the whole: the search and the optimizer
	Expanded  int64       `json:"expanded"`
	Generated int64       `json:"generated"`
	Stored    int64       `json:"stored"`
	Bytes     int64       `json:"bytes"`
	Seed      uint64      `json:"seed"`
	Threads   int         `json:"threads,omitempty"` // --threads, when more than 1 (absent means 1)
	Params    paramsValue `json:"params,omitempty"`

	Iterations   int64            `json:"iterations,omitempty"`
	TreeSize     int64            `json:"tree_size,omitempty"`
	UniqueStates int64            `json:"unique_states,omitempty"`
	Counts       map[string]int64 `json:"counts,omitempty"`       // the solver's own counters (solver.Stats.Counts)
	Strategy     string           `json:"strategy,omitempty"`     // the portfolio member that solved the level
	FoundPushes  int              `json:"found_pushes,omitempty"` // the solver's own solution, before the optimizer
	FoundMoves   int              `json:"found_moves,omitempty"`
	AStarPushes  int              `json:"astar_pushes,omitempty"` // A*'s solution, when the found one wandered and A* searched again (solve.WanderRatio)
	AStarMoves   int              `json:"astar_moves,omitempty"`
	OptimizeS    float64          `json:"optimize_s,omitempty"` // the optimizer's part of wall_s, a search again by A* included
	Optimizer    string           `json:"optimizer,omitempty"`  // how the optimizer ended: "complete", "stopped" (its time or memory ran out, or Ctrl-C), "cancelled" (before it began), "off"
	Solution     string           `json:"solution,omitempty"`
	Error        string           `json:"error,omitempty"`
}

func levelID(l *level.Level) string {
	if l.Index > 0 {
		return l.Source + ":" + strconv.Itoa(l.Index)
	}
	return l.Source
}

func runSolve(ctx context.Context, c *solveConfig, specs []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	entry, ok := solver.Lookup(c.algo)
	if !ok {
		return usagef("solve: %v", solver.UnknownError(c.algo))
	}
	if err := solver.CheckParams(entry, c.params); err != nil {
		return usagef("solve: %v", err)
	}
	if c.model != "" && !entry.ReadsModel() {
		return usagef("solve: --model: solver %s reads no model (those that do: %s)", entry.Name, strings.Join(solver.ModelReaders(), ", "))
	}
	if b := c.budget; b.Iterations > 0 && b.Time == 0 && b.Nodes == 0 && !entry.Iterations {
		return usagef("solve: %s counts no iterations, so --iterations %d with no --time or --nodes is no limit: give one of them too (the solvers that count iterations: %s)",
			entry.Name, b.Iterations, strings.Join(solver.IterationCounters(), ", "))
	}
	if err := checkModel(c.model, entry); err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	if err := c.profile.check("solve"); err != nil {
		return err
	}
	if err := checkOut("solve", "--trace", c.trace); err != nil {
		return err
	}
	outs := []output{{"--trace", c.trace}, {"--cpuprofile", c.profile.cpu}, {"--memprofile", c.profile.mem}}
	if err := notAnInput("solve", stdin, specs, []string{c.model}, outs...); err != nil {
		return err
	}
	// --out may be a .sok input too: solved into itself, it is merged.
	if err := notAnInputSok("solve", stdin, specs, []string{c.model}, output{"--out", c.out}); err != nil {
		return err
	}
	if err := distinctOutputs("solve", stdout, append(outs, output{"--out", c.out})...); err != nil {
		return err
	}
	if err := sameKind("solve", "--trace", c.trace, kindTrace); err != nil {
		return err
	}
	if err := c.profile.sameKind("solve"); err != nil {
		return err
	}
	if c.out != "" {
		if c.sok, err = openSokOut(ctx, "solve", "--out", c.out); err != nil {
			return err
		}
		defer c.sok.close()
	}
	lvls, err := levels.ResolveEntries(ctx, specs, stdin)
	if err != nil {
		return err
	}
	c.threads = capThreads(stderr, "solve", c.threads)
	switch {
	case !entry.Threads: // it runs on one: no slots held for threads it ignores
		c.threads = 1
	case c.threads == 0:
		c.threads = 1
		if entry.SpareThreads {
			c.threads = autoThreads(min(c.workers, workerCeiling()), len(lvls), c.budget)
		}
	}
	// The memory is shared by the workers used, never more than the levels.
	c.workers = capWorkers(stderr, "solve", runsAtOnce(c.workers, c.threads), len(lvls))
	if !isSet(c.flags, "memory") {
		c.budget.Memory = solver.DefaultMemory(c.workers)
	}
	setMemoryLimit(c.workers, c.budget.Memory)
	stopProfile, err := c.profile.start()
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	defer func() {
		if perr := stopProfile(); perr != nil {
			err = errors.Join(err, fmt.Errorf("solve: %w", perr))
		}
	}()
	if c.trace != "" {
		made := missing(c.trace)
		f, ferr := createOutput(c.trace)
		if ferr != nil {
			return fmt.Errorf("solve: --trace: %w", ferr)
		}
		c.tracer = solver.NewTrace(f)
		defer func() {
			dropEmpty(c.trace, made, c.tracer.Err())
			if terr := errors.Join(c.tracer.Err(), f.Close()); terr != nil {
				err = errors.Join(err, fmt.Errorf("solve: --trace: %w", terr))
			}
		}()
	}
	err = solveAll(ctx, entry, lvls, c, stdout, stderr)
	if c.sok != nil {
		err = errors.Join(err, c.sok.write(ctx, stderr)) // what was solved, also when interrupted
	}
	return err
}

// maxAutoThreads bounds the threads soko solve gives a level by default:
// the speed-up was measured up to 8 (docs/fess.md, "Threads").
const maxAutoThreads = 8

// autoThreads is soko solve's --threads when not given: under a time
// limit alone, the CPU slots the levels leave idle (slots over levels),
// so that one level gets the machine; under a node or iteration limit,
// or none, 1, so that a seed repeats its run (and fess without a time
// limit runs one strategy).
func autoThreads(slots, levels int, b solver.Budget) int {
	if b.Time == 0 || b.Nodes > 0 || b.Iterations > 0 {
		return 1
	}
	return min(maxAutoThreads, max(1, slots/max(levels, 1)))
}

// solveAll solves the levels on c.workers workers and prints each result
// in level order as it comes, then the summary. A level that cannot be loaded is an error result in its place.
func solveAll(ctx context.Context, entry solver.Entry, lvls []levels.Entry, c *solveConfig, stdout, stderr io.Writer) error {
	start := time.Now()
	var progressOut io.Writer
	if progress.IsTerminal(stderr) {
		progressOut = stderr
	}
	prog := progress.New(progressOut, len(lvls))
	w := &solveWriter{c: c, stdout: stdout, stderr: stderr, enc: json.NewEncoder(stdout), prog: prog}
	results := make([]chan record, len(lvls))
	for i := range results {
		results[i] = make(chan record, 1)
	}
	started := make([]atomic.Bool, len(lvls))
	go func() {
		// Each hands out the levels in order and none once ctx is done;
		// the loop below sees the cancellation itself.
		_ = parallel.Each(ctx, len(lvls), c.workers, func(i int) {
			started[i].Store(true)
			if u := lvls[i].Unloadable; u != nil {
				results[i] <- unloadableRecord(u, c)
				return
			}
			results[i] <- solveOne(ctx, entry, lvls[i].Level, c, prog, w)
		})
		prog.Stop()
	}()

	// Print in level order as results arrive.
	var solved, failed, done int
print:
	for i := range lvls {
		var r record
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			// Levels are handed out in order: once one has not started,
			// none after it has. One that did start ends promptly with
			// status cancelled.
			if !started[i].Load() {
				break print
			}
			r = <-results[i]
		}
		done++
		if c.sok != nil {
			c.sok.addSolveResult(lvls[i], r, c)
		}
		if c.noLURD {
			r.Solution = "" // kept until here for --out
		}
		if err := w.final(r); err != nil {
			return err
		}
		switch {
		case r.Error != "":
			failed++
		case r.Status == solvedStatus:
			solved++
		}
	}
	prog.Stop()
	summary := solveSummary(c, len(lvls), solved, done, failed, time.Since(start))
	if c.json {
		fmt.Fprintln(stderr, summary)
	} else {
		fmt.Fprintln(stdout, summary)
	}
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case failed > 0:
		return errSilent
	}
	return nil
}

// solveSummary is the last line of soko solve: how many of the levels
// were solved, with what and how long it took, and what was not run.
func solveSummary(c *solveConfig, levels, solved, done, failed int, took time.Duration) string {
	limit := c.budget.Time.String() + " per level"
	if c.budget.Time == 0 {
		limit = "no time limit"
	}
	if c.threads > 1 {
		limit += ", " + strconv.Itoa(c.threads) + " threads"
	}
	summary := fmt.Sprintf("solved %d of %s with %s (%s) in %s",
		solved, english.Count(levels, "level", "levels"), c.algo, limit, took.Round(time.Millisecond))
	if done < levels {
		summary += fmt.Sprintf("; %d not run", levels-done)
	}
	if failed > 0 {
		summary += "; " + english.Count(failed, "error", "errors")
	}
	return summary
}

func solveOne(ctx context.Context, entry solver.Entry, l *level.Level, c *solveConfig, prog *progress.Line, w *solveWriter) record {
	r := record{Level: levelID(l), Title: l.Label(), LevelHash: bench.LevelHash(l), Algo: c.algo, Seed: c.seed, Params: c.params}
	if c.threads > 1 {
		r.Threads = c.threads
	}
	slot := prog.Begin(r.Level)
	solved := false
	defer func() { prog.End(slot, solved) }()
	opts := solver.Options{Budget: c.budget, Seed: c.seed, Params: c.params, Model: c.model, Threads: c.threads, Trace: c.tracer.Level(r.Level)}
	pol := c.opt
	settled := new(bool) // Run has returned (solveWriter.settle)
	view := &optimizerView{metric: c.opt.Metric}
	if prog.Active() {
		opts.Progress = func(p solver.Progress) { prog.Update(slot, view.progress(p)) }
	}
	if !pol.Off {
		pol.Events.Found = func(o solve.Outcome) {
			f := r
			f.Phase, f.Status, f.Pushes, f.Moves = "found", solvedStatus, o.Found.Pushes, o.Found.Moves
			f.SolveS, f.Seconds = o.SolveTime.Seconds(), o.SolveTime.Seconds()
			st := o.Stats
			f.Expanded, f.Generated, f.Stored, f.Bytes = st.Expanded, st.Generated, st.Stored, st.Bytes
			f.Strategy = st.Strategy
			if !c.noLURD {
				f.Solution = level.FormatLURD(o.Moves)
			}
			w.found(f, settled)
			prog.Update(slot, view.begin(o.Found, st))
		}
		pol.Events.Improved = func(s optimize.Score) { prog.Update(slot, view.improved(s)) }
	}
	res, err := solve.Run(ctx, entry.New(), l, opts, pol)
	w.settle(settled)
	r.Status = res.Status.String()
	r.SolveS = res.SolveTime.Seconds()
	r.Seconds = (res.SolveTime + res.Time).Seconds()
	st := res.Stats
	r.Expanded, r.Generated, r.Stored, r.Bytes = st.Expanded, st.Generated, st.Stored, st.Bytes
	r.Iterations, r.TreeSize, r.UniqueStates = st.Iterations, st.TreeSize, st.UniqueStates
	r.Counts, r.Strategy = st.Counts, st.Strategy
	if err != nil {
		r.Status, r.Error = bench.StatusError, err.Error()
		return r
	}
	if res.Status == solver.Solved {
		solved = true
		r.Pushes, r.Moves = res.Pushes, len(res.Moves)
		if !c.opt.Off {
			r.FoundPushes, r.FoundMoves = res.Found.Pushes, res.Found.Moves
			r.AStarPushes, r.AStarMoves = res.Resolved.Pushes, res.Resolved.Moves
			r.OptimizeS = res.Time.Seconds()
		}
		switch {
		case c.opt.Off:
			r.Optimizer = "off"
		case res.Complete:
			r.Optimizer = "complete"
		case res.Optimized:
			r.Optimizer = "stopped"
		default:
			r.Optimizer = "cancelled" // interrupted before it began
		}
		if !c.noLURD || c.sok != nil {
			r.Solution = level.FormatLURD(res.Moves)
		}
	}
	return r
}

// lineName is how a result line names its level: the address, then the
// title in parentheses when it has one ("mine.xsb:1 (12)"), so that a
// title that is a number is not read as the address.
func lineName(id, title string) string {
	id = level.Printable(id) // a file's name may hold what would drive a terminal; a title is kept printable when read
	if title == "" {
		return id
	}
	return id + " (" + title + ")"
}

// optimizerView is what a level's progress line says once its solution
// is found: "optimizing: 153 → 131 pushes". solve.Run's events set it;
// the solver's progress, which a portfolio's members may send from their
// own goroutines, reads it.
type optimizerView struct {
	mu          sync.Mutex
	metric      optimize.Metric
	on          bool           // the solution is found and goes to the optimizer
	found, best optimize.Score // the optimizer's start and its best so far
	stats       solver.Stats   // the search's
}

func (v *optimizerView) begin(s optimize.Score, st solver.Stats) solver.Progress {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.on, v.found, v.best, v.stats = true, s, s, st
	return v.progressLocked(solver.Progress{Stats: st})
}

func (v *optimizerView) improved(s optimize.Score) solver.Progress {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.best = s
	return v.progressLocked(solver.Progress{Stats: v.stats})
}

// progress is p as the line shows it: the optimizer's words in place of
// the solver's once the solution is found.
func (v *optimizerView) progress(p solver.Progress) solver.Progress {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.progressLocked(p)
}

func (v *optimizerView) progressLocked(p solver.Progress) solver.Progress {
	switch {
	case !v.on:
	case v.metric == optimize.Moves:
		p.Detail = fmt.Sprintf("optimizing: %d → %d moves", v.found.Moves, v.best.Moves)
	default:
		p.Detail = fmt.Sprintf("optimizing: %d → %d pushes", v.found.Pushes, v.best.Pushes)
	}
	return p
}

// solveWriter writes soko solve's output: each level's final result, in
// level order, and the solutions found as they are found (from the
// workers), one at a time.
type solveWriter struct {
	mu             sync.Mutex
	c              *solveConfig
	stdout, stderr io.Writer
	enc            *json.Encoder
	prog           *progress.Line
}

// foundDelay is how long the optimizer may run before the text output
// tells the solution found: most short solutions are optimized in
// milliseconds, and a line for each would double the output.
const foundDelay = 100 * time.Millisecond

// found tells a verified solution the moment it is found, before the
// optimizer shortens it: a "found" record on stdout with --json; a line
// on stderr otherwise, foundDelay later unless *settled by then. An error
// writing it is left for the final record to meet.
func (w *solveWriter) found(r record, settled *bool) {
	if w.c.json {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.prog.Clear()
		_ = w.enc.Encode(r)
		return
	}
	time.AfterFunc(foundDelay, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if *settled {
			return
		}
		w.prog.Clear()
		fmt.Fprintf(w.stderr, "%-24s found %s in %.3fs; optimizing…\n", lineName(r.Level, r.Title), lengths(r.Pushes, r.Moves), r.SolveS)
	})
}

// settle marks a level's run as returned, before its final record is
// written: its found line, if not yet written, never is.
func (w *solveWriter) settle(settled *bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	*settled = true
}

// final writes a level's result.
func (w *solveWriter) final(r record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.prog.Clear()
	if w.c.json {
		return w.enc.Encode(r)
	}
	printRecord(w.stdout, r, w.c.noLURD, w.c.verbose)
	return nil
}

func printRecord(w io.Writer, r record, noLURD, verbose bool) {
	name := lineName(r.Level, r.Title)
	if r.Error != "" {
		fmt.Fprintf(w, "%-24s error: %s\n", name, r.Error)
		return
	}
	pushes, moves := "–", "–"
	if r.Status == solvedStatus {
		pushes, moves = strconv.Itoa(r.Pushes), strconv.Itoa(r.Moves)
	}
	fmt.Fprintf(w, "%-24s %-12s pushes %4s  moves %5s  time %8.3fs  expanded %9d\n",
		name, r.Status, pushes, moves, r.Seconds, r.Expanded)
	if verbose {
		printCounters(w, r)
	}
	if r.Solution != "" && !noLURD {
		fmt.Fprintf(w, "  %s\n", r.Solution)
	}
}

// lengths is a solution's "1 push, 5 moves".
func lengths(pushes, moves int) string {
	return english.Count(pushes, "push", "pushes") + ", " + english.Count(moves, "move", "moves")
}

// printCounters writes the lines of -v under a result's line: the
// solution found and the optimizer's time, the iterations, the solver's
// counters.
func printCounters(w io.Writer, r record) {
	if r.Status == solvedStatus && r.Optimizer != "" && r.Optimizer != "off" {
		astar := ""
		if r.AStarPushes > 0 {
			astar = "; astar " + lengths(r.AStarPushes, r.AStarMoves)
		}
		fmt.Fprintf(w, "  found %s in %.3fs%s; optimizer %.3fs, %s\n", lengths(r.FoundPushes, r.FoundMoves), r.SolveS, astar, r.OptimizeS, r.Optimizer)
	}
	if r.Iterations > 0 {
		perNode := 0.0
		if r.TreeSize > 0 {
			perNode = float64(r.UniqueStates) / float64(r.TreeSize)
		}
		fmt.Fprintf(w, "  iterations %d  tree size %d  unique states %d (%.2f per tree node)\n",
			r.Iterations, r.TreeSize, r.UniqueStates, perNode)
	}
	if len(r.Counts) > 0 || r.Strategy != "" {
		var parts []string
		if r.Strategy != "" {
			// The solver that ran, then the member of its portfolio that solved.
			parts = append(parts, "solved by "+r.Algo+" ("+r.Strategy+")")
		}
		for _, k := range slices.Sorted(maps.Keys(r.Counts)) {
			parts = append(parts, fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), r.Counts[k]))
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, "  "))
	}
}
