package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"soko/internal/english"
	"soko/internal/progress"
	"soko/level"
	"soko/levels"
	"soko/optimize"
	"soko/solver"
)

const optimizeDoc = `Shortens a solution: reads it as its pushes with shortest walks between
them, cuts cycles, re-routes each run of pushes of one box, then runs
vicinity searches (up to as many boxes as --radii has radii may stand off
the solution's squares, each among its radius's nearest squares) over
stretches of the solution that grow to the whole of it, until a turn over
the whole solution brings no gain. The result is replayed by the verifier
and is never longer in --metric than the given solution. SOLUTION is read
as by 'soko verify'. With --from FILE.jsonl every solved record of a 'soko
bench' or 'soko solve --json' results file is optimized instead, with
--time per level, and --compare sets the totals beside other solvers'.
When stderr is a terminal a progress line shows the current length; Ctrl-C
ends the search and prints the best solution found so far.
`

type optimizeConfig struct {
	metric  optimize.Metric
	time    time.Duration
	radii   []int
	memory  int64
	from    string
	compare compareFiles
	json    bool
	noLURD  bool
}

func optimizeFlags() (*flag.FlagSet, *optimizeConfig) {
	c := &optimizeConfig{time: time.Minute, radii: optimize.DefaultRadii, memory: optimize.DefaultMemory}
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	fs.Func("metric", "what to shorten first, `M`: pushes, moves, pushes,moves or moves,pushes (the other breaks ties; default pushes)", func(s string) error {
		m, err := optimize.ParseMetric(s)
		if err != nil {
			return errors.New("want pushes, moves, pushes,moves or moves,pushes")
		}
		c.metric = m
		return nil
	})
	fs.Var(durationValue{&c.time}, "time", "time limit `D` per solution, e.g. 10s, 2m (0: none)")
	fs.Var(radiiValue{&c.radii}, "radii", "vicinity radii `LIST`, one per box that may stand off the solution (empty: no vicinity search)")
	fs.Var(sizeValue{&c.memory}, "memory", "memory `SIZE` one vicinity search may hold before its stretch is split")
	fs.StringVar(&c.from, "from", "", "optimize every solved record of results `FILE.jsonl`")
	fs.Var(&c.compare, "compare", "with --from, set the totals beside those of the solvers in `FILE` (JSONL results, or a table of NAME_status, NAME_pushes, NAME_moves columns); repeatable")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per solution (JSONL); the summary goes to stderr")
	fs.BoolVar(&c.noLURD, "no-solution", false, "do not print the solutions")
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
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > optimize.MaxRadius {
			return fmt.Errorf("want squares from 1 to %d, comma-separated, at most %d, such as 20,10", optimize.MaxRadius, optimize.MaxRadii)
		}
		radii = append(radii, n)
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
	Metric   string         `json:"metric"`
	Before   optimize.Score `json:"before"`
	After    optimize.Score `json:"after"`
	Complete bool           `json:"complete"`
	Seconds  float64        `json:"time_s"`
	Searches int            `json:"searches"`
	Expanded int64          `json:"expanded"`
	Solution string         `json:"solution,omitempty"`
	Error    string         `json:"error,omitempty"`
}

func runOptimize(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, c := optimizeFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	var jobs []optimizeJob
	switch {
	case c.from != "" && len(pos) > 0:
		return usagef("optimize: --from takes no LEVEL SOLUTION")
	case c.from == "" && len(c.compare) > 0:
		return usagef("optimize: --compare needs --from")
	case c.from != "":
		if jobs, err = jobsFrom(c.from); err != nil {
			return err
		}
	case len(pos) != 2:
		return usagef("optimize: want LEVEL SOLUTION, got %s", english.Count(len(pos), "argument", "arguments"))
	default:
		lvls, err := levels.ResolveAll(ctx, pos[:1], stdin)
		if err != nil {
			return err
		}
		if len(lvls) != 1 {
			return usagef("optimize: %q names %d levels; name exactly one", pos[0], len(lvls))
		}
		text, err := readSolution(ctx, pos[1], stdin)
		if err != nil {
			return fmt.Errorf("optimize: %w", err)
		}
		jobs = []optimizeJob{{level: lvls[0], lurd: text}}
	}
	others := lengthsBy{}
	for _, path := range c.compare {
		if err := readLengths(path, others); err != nil {
			return err
		}
	}
	var status io.Writer
	if progress.IsTerminal(stderr) {
		status = stderr
	}
	enc := json.NewEncoder(stdout)
	var before, after optimize.Score
	ours := map[string]optimize.Score{} // level → the shortest optimized solution
	done, failed := 0, 0
	for _, j := range jobs {
		if done > 0 && ctx.Err() != nil {
			break // interrupted: the solution running was printed, no more start
		}
		r := optimizeOne(ctx, j, c, status)
		done++
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
		before.Pushes += r.Before.Pushes
		before.Moves += r.Before.Moves
		after.Pushes += r.After.Pushes
		after.Moves += r.After.Moves
		if s, ok := ours[r.Level]; !ok || c.metric.Better(r.After, s) {
			ours[r.Level] = r.After
		}
	}
	if c.from != "" {
		summary := fmt.Sprintf("optimized %s for %s: pushes %d → %d, moves %d → %d",
			english.Count(done-failed, "solution", "solutions"), c.metric, before.Pushes, after.Pushes, before.Moves, after.Moves)
		if done < len(jobs) {
			summary += fmt.Sprintf("; %d not run", len(jobs)-done)
		}
		if failed > 0 {
			summary += "; " + english.Count(failed, "error", "errors")
		}
		w := stdout
		if c.json {
			w = stderr
		}
		fmt.Fprintln(w, summary)
		printComparisons(w, ours, others)
	}
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case failed > 0:
		return errSilent
	}
	return nil
}

// optimizeJob is one solution to optimize.
type optimizeJob struct {
	level  *level.Level
	lurd   string
	solver string
}

// jobsFrom reads the solved records of a results file: 'soko bench' records
// (status solved and verified) or 'soko solve --json' ones.
func jobsFrom(path string) ([]optimizeJob, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, usagef("optimize: results file %s does not exist", path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var jobs []optimizeJob
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), level.MaxSolutionText+1<<16)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var r struct {
			Level    string `json:"level"`
			Status   string `json:"status"`
			Verified *bool  `json:"verified"`
			Solver   string `json:"solver"`
			Algo     string `json:"algo"`
			Solution string `json:"solution"`
		}
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if r.Status != "solved" || r.Solution == "" || r.Verified != nil && !*r.Verified {
			continue
		}
		lvls, err := levels.Resolve(r.Level, nil)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: level %q: %v", path, line, r.Level, err)
		}
		if len(lvls) != 1 {
			return nil, fmt.Errorf("%s:%d: level %q names %d levels", path, line, r.Level, len(lvls))
		}
		solverName := r.Solver
		if solverName == "" {
			solverName = r.Algo
		}
		jobs = append(jobs, optimizeJob{level: lvls[0], lurd: r.Solution, solver: solverName})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return jobs, nil
}

func optimizeOne(ctx context.Context, j optimizeJob, c *optimizeConfig, status io.Writer) optimized {
	r := optimized{Level: levelID(j.level), Title: j.level.Title, Solver: j.solver, Metric: c.metric.String()}
	moves, err := level.ParseLURD(j.lurd)
	if err != nil {
		r.Error = "solution: " + err.Error()
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
	r.Before, r.After, r.Complete = res.Before, res.After, res.Complete
	r.Searches, r.Expanded = res.Searches, res.Expanded
	if !c.noLURD {
		r.Solution = level.FormatLURD(res.Moves)
	}
	return r
}

func printOptimized(w io.Writer, r optimized, noLURD bool) {
	name := lineName(r.Level, r.Title)
	if r.Error != "" {
		fmt.Fprintf(w, "%-24s error: %s\n", name, r.Error)
		return
	}
	end := "complete"
	if !r.Complete {
		end = "stopped"
	}
	fmt.Fprintf(w, "%-24s pushes %4d → %4d  moves %5d → %5d  time %7.3fs  %s\n",
		name, r.Before.Pushes, r.After.Pushes, r.Before.Moves, r.After.Moves, r.Seconds, end)
	if r.Solution != "" && !noLURD {
		fmt.Fprintf(w, "  %s\n", r.Solution)
	}
}

// solveOptimize holds the --optimize flags of soko solve.
type solveOptimize struct {
	on     bool
	metric optimize.Metric
	time   time.Duration
}

func optimizeSolveFlags(fs *flag.FlagSet, c *solveOptimize) {
	fs.BoolVar(&c.on, "optimize", false, "shorten each solution with the optimizer (see 'soko help optimize')")
	fs.Func("optimize-metric", "what --optimize shortens first, `M`: pushes or moves (default pushes)", func(s string) error {
		m, err := optimize.ParseMetric(s)
		if err != nil {
			return errors.New("want pushes, moves, pushes,moves or moves,pushes")
		}
		c.metric = m
		return nil
	})
	c.time = 10 * time.Second
	fs.Var(durationValue{&c.time}, "optimize-time", "time limit `D` of --optimize per solution (0: none)")
}

// optimizeSolved replaces a solver's verified solution with the optimizer's
// and returns an error message, or "" on success.
func optimizeSolved(ctx context.Context, l *level.Level, res *solver.Result, c solveOptimize) string {
	if c.time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.time)
		defer cancel()
	}
	out, err := optimize.Optimize(ctx, l, res.Moves, optimize.Options{Metric: c.metric})
	if err != nil {
		return "optimize: " + err.Error()
	}
	res.Moves, res.Pushes = out.Moves, out.After.Pushes
	return ""
}
