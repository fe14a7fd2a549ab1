package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"soko/internal/english"
	"soko/internal/outfile"
	"soko/internal/progress"
	"soko/level"
	"soko/levels"
	"soko/optimize"
	"soko/sokfile"
	"soko/verify"
)

const optimizeDoc = `Shortens a solution: reads it as its pushes with shortest walks between
them, cuts cycles, re-routes each run of pushes of one box, then runs
vicinity searches (up to as many boxes as --radii has radii may stand off
the solution's squares, each among its radius's nearest squares) over
stretches of the solution that grow to the whole of it, until a turn over
the whole solution brings no gain. The result is replayed by the verifier
and is never longer in --metric than the given solution. SOLUTION is read
as by 'soko verify', whose rule on letter case holds: a step in the wrong
case is an error naming it, unless --lenient-case. With --from FILE.jsonl every solved record of a 'soko
bench' or 'soko solve --json' results file is optimized instead, with
--time per level, and --compare sets the totals beside other solvers'.
When stderr is a terminal a progress line shows the current length; Ctrl-C
ends the search and prints the best solution found so far.

With FILE.sok (as soko solve --out writes it) the shortest solution in
--metric of each level is optimized, with --time per level, and the result
is added to the file in place beside the old ones (--replace drops those it
is at least as good as in pushes and moves).
`

type optimizeConfig struct {
	metric  optimize.Metric
	time    time.Duration
	radii   []int
	memory  int64
	from    string
	out     string
	compare compareFiles
	json    bool
	noLURD  bool
	replace bool // FILE.sok: the optimized solution replaces those it is as good as
	lenient bool // --lenient-case: take a solution in the wrong letter case, and say so
}

func optimizeFlags() (*flag.FlagSet, *optimizeConfig) {
	c := &optimizeConfig{time: time.Minute, radii: optimize.DefaultRadii, memory: optimize.DefaultMemory}
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	metricFlag(fs, &c.metric, "what to shorten first, `M`: pushes, moves, pushes,moves or moves,pushes (the other breaks ties; default pushes)")
	fs.Var(durationValue{&c.time}, "time", "time limit `D` per solution, e.g. 10s, 2m (0: none)")
	fs.Var(radiiValue{&c.radii}, "radii", "vicinity radii `LIST`, one per box that may stand off the solution (empty: no vicinity search)")
	fs.Var(sizeValue{&c.memory}, "memory", "memory `SIZE` one vicinity search may hold before its stretch is split")
	fs.StringVar(&c.from, "from", "", "optimize every solved record of results `FILE.jsonl` (or .jsonl.gz; read as it goes, at most 64 MiB)")
	fs.StringVar(&c.out, "out", "", "also write each result as a JSON line to `FILE`, appended; run again, levels already in it are skipped")
	fs.Var(&c.compare, "compare", "with --from, set the totals beside those of the solvers in `FILE` (JSONL results, or a table of NAME_status, NAME_pushes, NAME_moves columns); repeatable")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per solution (JSONL); the summary goes to stderr")
	fs.BoolVar(&c.noLURD, "no-solution", false, "do not print the solutions")
	fs.BoolVar(&c.replace, "replace", false, "with FILE.sok, drop the solutions the optimized one is at least as good as in pushes and moves (default: keep them beside it)")
	lenientCaseFlag(fs, &c.lenient)
	return fs, c
}

// radiiValue is the --radii flag: vicinity sizes such as 20,10.
type radiiValue struct{ r *[]int }

func (v radiiValue) String() string {
	if v.r == nil {
		return ""
	}
	var parts []string
	for _, r := range *v.r {
		parts = append(parts, strconv.Itoa(r))
	}
	return strings.Join(parts, ",")
}

func (v radiiValue) Set(s string) error {
	radii := []int{}
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" && !strings.Contains(s, ",") {
			continue
		}
		n, err := parseWhole(strings.TrimSpace(part))
		if err != nil || n < 1 || n > optimize.MaxRadius {
			return fmt.Errorf("want squares from 1 to %d, comma-separated, at most %d, such as 20,10", optimize.MaxRadius, optimize.MaxRadii)
		}
		radii = append(radii, int(n))
	}
	if len(radii) > optimize.MaxRadii {
		return fmt.Errorf("want at most %d radii, such as 20,10", optimize.MaxRadii)
	}
	*v.r = radii
	return nil
}

// optimized is one solution's result, as printed by --json.
type optimized struct {
	Level    string         `json:"level"`
	Title    string         `json:"title,omitempty"`
	Solver   string         `json:"solver,omitempty"` // the solver of a --from record
	Run      string         `json:"run,omitempty"`    // the key of a --from record of soko bench: its budget and seed besides
	Given    string         `json:"given,omitempty"`  // the hash of a LEVEL SOLUTION's moves, so that a run again skips only the same solution
	Metric   string         `json:"metric"`
	Before   optimize.Score `json:"before"`
	After    optimize.Score `json:"after"`
	Complete bool           `json:"complete"`
	// MemoryLimited: a stretch was left unsearched because its search
	// outgrew --memory.
	MemoryLimited bool    `json:"memory_limited,omitempty"`
	Seconds       float64 `json:"time_s"`
	Searches      int     `json:"searches"`
	Expanded      int64   `json:"expanded"`
	Solution      string  `json:"solution,omitempty"`
	Error         string  `json:"error,omitempty"`
	// caseNote is what --lenient-case says of a solution it took in the
	// wrong letter case; caseRefused, that such a solution was refused
	// without it (not written to --out, so that a run with it does it).
	caseNote    string
	caseRefused bool
}

func runOptimize(ctx context.Context, c *optimizeConfig, pos []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch {
	case c.from == "" && len(pos) == 1:
		return optimizeSok(ctx, pos[0], c, stdout, stderr)
	case c.from != "" && len(pos) > 0:
		return usagef("optimize: --from takes no LEVEL SOLUTION")
	case c.from == "" && len(c.compare) > 0:
		return usagef("optimize: --compare needs --from")
	case c.from == "" && len(pos) != 2:
		return usagef("optimize: want LEVEL SOLUTION or FILE.sok, got %s", english.Count(len(pos), "argument", "arguments"))
	}
	if err := checkOut("optimize", "--out", c.out); err != nil {
		return err
	}
	if err := notGzip("optimize", "--out", c.out); err != nil {
		return err
	}
	inputs := append([]string{c.from}, c.compare...)
	if len(pos) == 2 {
		inputs = append(inputs, pos[1]) // the solution, when a file
	}
	if err := notAnInput("optimize", stdin, pos[:min(len(pos), 1)], inputs, output{"--out", c.out}); err != nil {
		return err
	}
	others := lengthsBy{}
	for _, path := range c.compare {
		if err := readLengths(path, others); err != nil {
			return err
		}
	}
	var jobs func(yield func(optimizeJob) error) error
	if c.from != "" {
		jobs = func(yield func(optimizeJob) error) error { return eachFrom(ctx, c.from, stderr, yield) }
	} else {
		l, text, from, err := levelAndSolution(ctx, "optimize", pos, stdin)
		if err != nil {
			return err
		}
		jobs = func(yield func(optimizeJob) error) error {
			return yield(optimizeJob{level: l, lurd: text, from: from, given: givenHash(text)})
		}
	}
	var out *optimizeOut
	if c.out != "" {
		if err := distinctOutputs("optimize", stdout, output{"--out", c.out}); err != nil {
			return err
		}
		var err error
		if out, err = openOptimizeOut(c.out); err != nil {
			if errors.As(err, new(*outfile.BusyError)) {
				return fmt.Errorf("optimize: --out %w", err)
			}
			if notResults(err) {
				return usagef("optimize: --out %v", err)
			}
			return fmt.Errorf("optimize: %w", err)
		}
		defer out.close()
		out.stderr = stderr
	}
	var status io.Writer
	if progress.IsTerminal(stderr) {
		status = stderr
	}
	enc := json.NewEncoder(stdout)
	var before, after optimize.Score
	ours := map[string]optimize.Score{} // level → the shortest optimized solution
	done, failed, skipped := 0, 0, 0
	// The --out file keeps the solutions whatever --no-solution says of
	// what is printed: a run again skips what it holds.
	withSolutions := c
	if out != nil {
		keep := *c
		keep.noLURD = false
		withSolutions = &keep
	}
	err := jobs(func(j optimizeJob) error {
		if done > 0 && ctx.Err() != nil {
			return errInterrupted // the solution running was printed, no more start
		}
		if out != nil && out.has(j) {
			skipped++
			return nil
		}
		r := optimizeOne(ctx, j, withSolutions, status)
		done++
		noteCase(stderr, r)
		shown := r
		if c.noLURD {
			shown.Solution = ""
		}
		if c.json {
			if err := enc.Encode(shown); err != nil {
				return err
			}
		} else {
			printOptimized(stdout, shown, c.noLURD)
		}
		if out != nil && ctx.Err() == nil && !r.caseRefused { // one cut short by Ctrl-C, or refused for its case, is done again on resume
			if err := out.write(r); err != nil {
				return err
			}
		}
		if r.Error != "" {
			failed++
			return nil
		}
		before.Pushes += r.Before.Pushes
		before.Moves += r.Before.Moves
		after.Pushes += r.After.Pushes
		after.Moves += r.After.Moves
		if s, ok := ours[r.Level]; !ok || c.metric.Better(r.After, s) {
			ours[r.Level] = r.After
		}
		return nil
	})
	if out != nil && err == nil {
		err = out.follow() // a file replaced as the last result was written
	}
	interrupted := errors.Is(err, errInterrupted) || ctx.Err() != nil
	if err != nil && !interrupted {
		return err
	}
	if c.from == "" && skipped > 0 {
		fmt.Fprintf(stderr, "optimize: this solution's result is already in %s: skipped (another --out, or the file without its line, runs it again)\n", c.out)
	}
	if c.from != "" {
		summary := fmt.Sprintf("optimized %s for %s: pushes %d → %d, moves %d → %d",
			english.Count(done-failed, "solution", "solutions"), c.metric, before.Pushes, after.Pushes, before.Moves, after.Moves)
		if skipped > 0 {
			summary += fmt.Sprintf("; %d done before (in %s)", skipped, c.out)
		}
		if failed > 0 {
			summary += "; " + english.Count(failed, "error", "errors")
		}
		if interrupted {
			summary += "; interrupted"
			if c.out != "" {
				summary += ": run the same command again to resume"
			}
		}
		w := stdout
		if c.json {
			w = stderr
		}
		fmt.Fprintln(w, summary)
		printComparisons(w, ours, others)
	}
	switch {
	case interrupted:
		return errInterrupted
	case failed > 0:
		return errSilent
	}
	return nil
}

func optimizeOne(ctx context.Context, j optimizeJob, c *optimizeConfig, status io.Writer) optimized {
	r := optimized{Level: levelID(j.level), Title: j.level.Label(), Solver: j.solver, Run: j.run, Given: j.given, Metric: c.metric.String()}
	moves, err := level.ParseLURD(j.lurd)
	if err != nil {
		r.Error = j.from + ": " + err.Error()
		return r
	}
	if r.caseNote, err = checkCase(j.level, moves, c.lenient); err != nil {
		r.Error, r.caseRefused = "solution refused: "+err.Error(), true
		return r
	}
	if c.time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.time)
		defer cancel()
	}
	start := time.Now()
	shown := false
	opts := optimize.Options{Metric: c.metric, Radii: c.radii, Memory: c.memory}
	if status != nil {
		opts.Progress = func(p optimize.Progress) {
			fmt.Fprintf(status, "\r\x1b[K%s: %s, pushes %d, moves %d, %s", r.Level, p.Pass, p.Pushes, p.Moves, time.Since(start).Round(time.Second))
			shown = true
		}
	}
	res, err := optimize.Optimize(ctx, j.level, moves, opts)
	if shown {
		fmt.Fprint(status, "\r\x1b[K")
	}
	r.Seconds = time.Since(start).Seconds()
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Before, r.After, r.Complete, r.MemoryLimited = res.Before, res.After, res.Complete, res.MemoryLimited
	r.Searches, r.Expanded = res.Searches, res.Expanded
	if !c.noLURD {
		r.Solution = level.FormatLURD(res.Moves)
	}
	return r
}

// noteCase says on stderr what --lenient-case normalised in r's solution.
func noteCase(stderr io.Writer, r optimized) {
	if r.caseNote != "" {
		fmt.Fprintf(stderr, "soko: optimize: %s: %s\n", lineName(r.Level, r.Title), r.caseNote)
	}
}

func printOptimized(w io.Writer, r optimized, noLURD bool) {
	name := lineName(r.Level, r.Title)
	if r.Error != "" {
		fmt.Fprintf(w, "%-24s error: %s\n", name, r.Error)
		return
	}
	end := "complete"
	switch {
	case r.MemoryLimited:
		end = "memory limit"
	case !r.Complete:
		end = "stopped"
	}
	fmt.Fprintf(w, "%-24s pushes %4d → %4d  moves %5d → %5d  time %7.3fs  %s\n",
		name, r.Before.Pushes, r.After.Pushes, r.Before.Moves, r.After.Moves, r.Seconds, end)
	if r.Solution != "" && !noLURD {
		fmt.Fprintf(w, "  %s\n", r.Solution)
	}
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
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		_, err = readSok(ctx, "optimize", path) // the usage error of a missing input
		return err
	}
	o, err := openSokOut(ctx, "optimize", "file", path)
	if err != nil {
		return err
	}
	defer o.close()
	o.replace = c.replace
	f := o.read
	var status io.Writer
	if progress.IsTerminal(stderr) {
		status = stderr
	}
	keep := *c
	keep.noLURD = false // the file needs the solutions
	enc := json.NewEncoder(stdout)
	done, failed, atStart, passed := 0, 0, 0, 0 // passed: sections passed over, said on stderr
	for _, e := range f.Entries {
		if ctx.Err() != nil {
			break
		}
		le := levels.Entry{Level: e.Level, Unloadable: e.Unloadable}
		for _, u := range e.Unreadable { // passed over, and said, as verify says it
			if !e.IsSnapshot(u) {
				passed++
				fmt.Fprintf(stderr, "optimize: %s: a solution cannot be read: %v\n", lineName(le.ID(), le.Label()), u)
			}
		}
		if e.Unloadable != nil && len(e.Solutions) > 0 {
			passed++
			fmt.Fprintf(stderr, "optimize: %s: its solutions are passed over: the level cannot be loaded: %v\n", lineName(le.ID(), le.Label()), e.Unloadable.Err)
		}
		best := bestSolution(e, c.metric)
		if best == nil {
			if e.Level != nil && len(e.Solutions) == 0 && solvedAtStart(e.Level) {
				atStart++
			}
			continue
		}
		source := fmt.Sprintf("the solution of %s line %d", path, best.Line)
		r := optimizeOne(ctx, optimizeJob{level: e.Level, lurd: best.LURD, from: source, solver: best.Solver}, &keep, status)
		done++
		noteCase(stderr, r)
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
		o.add(levels.Entry{Level: e.Level}, lurd, "soko optimize --metric "+c.metric.String()+" (from "+from+")")
	}
	if len(o.adds) > 0 {
		o.onlyAdded = true
		if err := o.save(ctx, stderr); err != nil {
			return err
		}
	}
	w := stdout
	if c.json {
		w = stderr
	}
	note := ""
	if passed > 0 {
		note = fmt.Sprintf("; %d passed over (said above)", passed)
	}
	allAtStart := done == 0 && passed == 0 && atStart > 0 && atStart == len(f.Entries) // nothing to shorten
	if allAtStart {
		note = fmt.Sprintf("; its %s solved at the start, needing none", english.Count(atStart, "level is", "levels are"))
	}
	fmt.Fprintf(w, "optimized %s for %s; %s new or better in %s%s\n", english.Count(done-failed, "solution", "solutions"),
		c.metric, english.Count(o.added, "solution", "solutions"), path, note)
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case allAtStart:
		return nil // soko solve --out writes no section for a level solved at its start: nothing to shorten
	case done == 0 && passed == 0:
		return fmt.Errorf("optimize: %s has no solution that solves its level%s", path, unloadableNote(f))
	case failed > 0 || passed > 0:
		return errSilent
	}
	return nil
}

// bestSolution is the entry's shortest solution in m among those that
// solve its level, one written in its right letter case before any that
// is not (which optimize refuses without --lenient-case), or nil.
func bestSolution(e *sokfile.Entry, m optimize.Metric) *sokfile.Solution {
	if e.Level == nil {
		return nil
	}
	var best *sokfile.Solution
	var bestScore optimize.Score
	bestSound := false
	for _, s := range e.Solutions {
		rep, err := verify.Check(e.Level, s.LURD)
		if err != nil || !rep.Solved {
			continue
		}
		sound := rep.CaseStep == 0
		sc := optimize.Score{Pushes: rep.Pushes, Moves: rep.Moves}
		if best == nil || (sound && !bestSound) || (sound == bestSound && m.Better(sc, bestScore)) {
			best, bestScore, bestSound = s, sc, sound
		}
	}
	return best
}
