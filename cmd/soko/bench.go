package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"soko/alphazero"
	"soko/bench"
	"soko/internal/english"
	"soko/internal/outfile"
	"soko/internal/progress"
	"soko/levels"
	"soko/solve"
	"soko/solver"
)

const benchDoc = `Runs every combination of solver, level, budget and seed on a pool of
workers and writes one JSON line per run. Running the same command again
with the same --out resumes: finished runs are skipped. Ctrl-C leaves a
valid file. --shard I/N runs every N-th job from the I-th (0-based); with
--shard N the index is read from JOB_COMPLETION_INDEX (a Kubernetes Indexed
Job); join the shards with 'soko bench merge'. Without --algo the solver
is fess, the default. Lists are comma-separated: --algo fess,astar
--time 0.1s,1s,10s --iterations 25,50 --seeds 1-5. A solver may carry its
own parameters: --algo wastar:w=1,wastar:w=200, the items of a list among
them joined by +: --algo fess:strategies=plan+sink. --memory 0 means no
memory limit.

External programs run as solvers with --external NAME='COMMAND' (under
/bin/sh -c), in which {level} is replaced by a file holding the level in
XSB, {solution} by a file name the program may write its LURD to, {time} by
the time limit in seconds (0: none), {seed} by the run's seed,
{iterations} by the iteration limit (0: none) and {memory} by the memory
limit in MiB (0: none). The command runs in a folder of its own, so a path
in it is absolute ($PWD/solver.sh). Without a {solution} file the LURD is
the last line of its standard output made only of LURD letters, repeat
counts and blanks. Every solution is verified.
`

// listValue is a repeatable flag whose values may also be comma-separated.
type listValue []string

func (l *listValue) String() string { return strings.Join(*l, ",") }

func (l *listValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty: give a value, or leave the flag out")
	}
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			return errors.New("an empty item in the list: want items apart by single commas")
		}
		*l = append(*l, part)
	}
	return nil
}

// repeatValue is a repeatable flag whose values are kept whole.
type repeatValue []string

func (r *repeatValue) String() string { return strings.Join(*r, " ") }

func (r *repeatValue) Set(s string) error { *r = append(*r, s); return nil }

type benchConfig struct {
	algos, times, nodes, iters, seeds listValue
	levels, externals                 repeatValue
	params                            paramsValue
	preset, out, shard, model         string
	workers, threads                  int
	memory                            int64
	opt                               solve.Policy // --optimize, --metric: for the solvers without their own optimize=
	noLURD, dryRun                    bool
	sok                               string                  // --sok FILE.sok
	sokOut                            *sokOut                 // the --sok file, once open
	sokLevels                         map[string]levels.Entry // the levels by their ids in records
	flags                             *flag.FlagSet           // the set that fills c: which flags were given
}

func benchFlags() (*flag.FlagSet, *benchConfig) {
	c := &benchConfig{params: paramsValue{}}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	c.flags = fs
	fs.Var(&c.algos, "algo", "solvers `A,B`; NAME:k=v:k=v gives one its own parameters (default fess)")
	fs.Var(&c.levels, "levels", "level `SPEC` (repeatable; positional arguments are level specs too)")
	fs.Var(&c.times, "time", "time limits `D,...` per run, e.g. 0.1s,1s,10s (0: none; default 10s for a run without a node or iteration limit)")
	fs.Var(&c.nodes, "nodes", "limits `N,...` of states expanded per run, e.g. 1000,10000 (0: none)")
	fs.Var(&c.iters, "iterations", "limits `N,...` of iterations per run, e.g. 25,50,100 (0: none)")
	fs.Var(&c.seeds, "seeds", "`SEEDS` such as 1,2,3 or 1-5 (default 1)")
	alias(fs, "seed", "seeds")
	fs.Var(c.params, "param", "solver parameter `NAME=VALUE` for every solver that takes it (repeatable)")
	for _, name := range []string{"w", "p", "c"} {
		fs.Var(paramValue{c.params, name}, name, "shorthand for --param "+name+"=`VALUE`")
	}
	fs.Var(&c.externals, "external", "external solver `NAME='COMMAND'`: {level} {time} {seed} {iterations} {memory} {solution} (repeatable; see above)")
	fs.StringVar(&c.preset, "preset", "", "run the experiment `NAME` of a seed document (see above)")
	fs.StringVar(&c.out, "out", "", "results `FILE` (JSONL), appended to and resumed (default: standard output)")
	fs.StringVar(&c.shard, "shard", "", "run shard `I/N` only (0-based I; N alone: I from JOB_COMPLETION_INDEX)")
	fs.Var(workersValue{&c.workers}, "j", "`N` CPU slots: one-thread runs at once; a run with --threads T takes T of them (default: one per core)")
	c.workers = runtime.NumCPU() // after fs.Var, so that help does not print this machine's count
	c.threads = 1
	fs.Var(workersValue{&c.threads}, "threads", "let a portfolio solver run up to `N` strategies of each run side by side")
	fs.StringVar(&c.model, "model", "", "model `FILE` given to every run of the registered solvers that read one (alphazero, mcts-dist, greedy-dist, puct, lts; fess's learned guide); its name and hash label the runs")
	fs.Var(sizeValue{&c.memory}, "memory", "memory limit `SIZE` per run, e.g. 512MiB, 4GiB (0: none; default: a third of physical memory shared by the workers)")
	policyFlags(fs, &c.opt)
	optimizeTimeFlag(fs, &c.opt)
	fs.BoolVar(&c.noLURD, "no-solution", false, "leave the solutions out of the results")
	fs.BoolVar(&c.dryRun, "dry-run", false, "print how many runs there are and are left, and stop")
	fs.StringVar(&c.sok, "sok", "", "also put the levels with their verified solutions in `FILE.sok`, as 'soko solve --out' does")
	return fs, c
}

// printPresets writes the presets for soko help bench.
func printPresets(w io.Writer) {
	fmt.Fprint(w, "\npresets (--preset NAME):\n")
	for _, p := range bench.Presets {
		fmt.Fprintf(w, "  %-10s %s\n", p.Name, p.Doc)
		if miss := p.Missing(); len(miss) > 0 {
			fmt.Fprintf(w, "  %-10s (not built yet: %s)\n", "", strings.Join(miss, ", "))
		}
	}
}

func runBench(ctx context.Context, c *benchConfig, pos []string, stdin io.Reader, stdout, stderr io.Writer) error {
	set := map[string]bool{}
	c.flags.Visit(func(f *flag.Flag) { set[f.Name] = true })
	set["seeds"] = set["seeds"] || set["seed"]
	specs, err := applyPreset(c, set, append([]string(c.levels), pos...))
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		return usagef("bench: no levels given")
	}
	if err := checkOut("bench", "--out", c.out); err != nil {
		return err
	}
	if !c.dryRun {
		if err := notGzip("bench", "--out", c.out); err != nil {
			return err
		}
	}
	if err := notAnInput("bench", stdin, specs, []string{c.model}, output{"--out", c.out}); err != nil {
		return err
	}
	if err := notAnInputSok("bench", stdin, specs, []string{c.model}, output{"--sok", c.sok}); err != nil {
		return err
	}
	if err := distinctOutputs("bench", stdout, output{"--out", c.out}, output{"--sok", c.sok}); err != nil {
		return err
	}
	c.threads = capThreads(stderr, "bench", c.threads)
	solvers, err := benchSolvers(c)
	if err != nil {
		return err
	}
	budgets, err := parseBudgets(c)
	if err != nil {
		return err
	}
	if err := boundedRuns(solvers, budgets); err != nil {
		return err
	}
	seeds, err := parseSeedList(c.seeds)
	if err != nil {
		return err
	}
	if c.sok != "" && !c.dryRun {
		if c.sokOut, err = openSokOut(ctx, "bench", "--sok", c.sok); err != nil {
			return err
		}
		defer c.sokOut.close()
	}
	shard, shards := 0, 1
	if c.shard != "" {
		if shard, shards, err = bench.ParseShard(c.shard, nil); err != nil {
			return usagef("bench: %v", err)
		}
	}
	es, err := levels.ResolveEntries(ctx, specs, stdin)
	if err != nil {
		return err
	}
	out, err := openBenchOut(c, stdout, stderr)
	if err != nil {
		return err
	}
	defer out.close()
	spellAsRecorded(es, out.recorded) // before the plan, whose runs are keyed by the levels' names
	lvls, unloadable := splitEntries(es)
	c.sokLevels = entriesByID(es)
	plan, err := bench.NewPlanContext(ctx, solvers, lvls, unloadable, budgets, seeds)
	if err != nil && ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return usagef("bench: %v", err)
	}
	shardNote := ""
	if c.shard != "" {
		plan = plan.Shard(shard, shards)
		shardNote = fmt.Sprintf(" (shard %d/%d)", shard, shards)
	}
	if c.sokOut != nil && c.out != "" {
		// A resumed bench puts the runs of earlier invocations in the
		// .sok too, not only those it runs now.
		if missing := earlierLevels(ctx, c.sokLevels, out.records); missing > 0 {
			fmt.Fprintf(stderr, "bench: not put in %s: %s of %s, whose levels cannot be found again as they were\n",
				c.sok, english.Count(missing, "run", "runs"), c.out)
		}
		unwritten := 0
		for _, rec := range out.records {
			c.sokOut.addRecord(c.sokLevels, rec)
			if rec.Solved() && rec.Solution == "" {
				unwritten++
			}
		}
		if unwritten > 0 {
			what := "runs of %s solved their levels without the solution recorded (--no-solution), so %s has no solution from them"
			if unwritten == 1 {
				what = "run of %s solved its level without the solution recorded (--no-solution), so %s has no solution from it"
			}
			fmt.Fprintf(stderr, "bench: %d "+what+"\n", unwritten, c.out, c.sok)
		}
	}
	total, todo := plan.Len(), plan.Pending(out.doneKeys)
	if c.dryRun {
		ns, nl, nb, nx := plan.Axes()
		fmt.Fprintf(stdout, "%s%s: %s x %s x %s x %s; %d left to run\n",
			english.Count(int(total), "run", "runs"), shardNote, english.Count(ns, "solver", "solvers"),
			english.Count(nl, "level", "levels"), english.Count(nb, "budget", "budgets"),
			english.Count(nx, "seed", "seeds"), todo)
		return nil
	}
	err = runPlan(ctx, c, set["memory"], plan, out, stderr, shardNote)
	if c.sokOut != nil {
		err = errors.Join(err, c.sokOut.write(ctx, stderr)) // what was solved, also when interrupted
	}
	return err
}

// runPlan runs the plan's runs not yet in out on the workers, writes their
// records and says on stderr what it did.
func runPlan(ctx context.Context, c *benchConfig, memorySet bool, plan *bench.Plan, out *benchOut, stderr io.Writer, shardNote string) error {
	total, todo := plan.Len(), plan.Pending(out.doneKeys)
	// Workers beyond the runs to do would only split the memory further.
	workers := capWorkers(stderr, "bench", runsAtOnce(c.workers, c.threads), int(min(todo, math.MaxInt32)))
	if !memorySet {
		c.memory = solver.DefaultMemory(workers)
	}
	setMemoryLimit(workers, c.memory)

	withoutModel := map[string]int{} // runs whose solver says it had no model, by solver
	write := func(rec bench.Record) error {
		if rec.Counts[alphazero.WithoutModel] > 0 {
			withoutModel[rec.Solver]++
		}
		if c.sokOut != nil {
			c.sokOut.addRecord(c.sokLevels, rec)
			if c.noLURD {
				rec.Solution = "" // kept until here for --sok
			}
		}
		return out.sink(rec)
	}
	r := &bench.Runner{Workers: workers, Memory: c.memory, NoSolution: c.noLURD && c.sokOut == nil, Write: write}
	if c.threads > 1 && workers > 1 && todo > 1 {
		fmt.Fprintf(stderr, "bench: %d runs with --threads %d at once (-j %d) share the process, so their CPU time is not measured (cpu_scope none); -j %d measures it\n", workers, c.threads, c.workers, c.threads)
	}
	if progress.IsTerminal(stderr) {
		r.Progress = stderr
	}
	sum, err := r.Run(ctx, int(todo), plan.Jobs(out.done))
	if err == nil || ctx.Err() != nil {
		if serr := out.settle(); serr != nil {
			err = serr
		}
	}
	var replaced *bench.ReplacedError
	errors.As(err, &replaced)
	where := ""
	if c.out != "" && replaced == nil {
		where = "; results in " + c.out
	}
	// Runner.Run's only error besides cancellation is a write that failed:
	// the summary then counts the runs written before it, not as a run done.
	writeFailed := err != nil && (ctx.Err() == nil || replaced != nil)
	now := fmt.Sprintf("%d run now", sum.Run)
	if writeFailed {
		now = fmt.Sprintf("%d run and written now, then a write failed", sum.Run)
	}
	fmt.Fprintf(stderr, "bench%s: %s, %d done before, %s: %d solved, %s, in %s%s\n",
		shardNote, english.Count(int(total), "run", "runs"), total-todo, now, sum.Solved,
		english.Count(sum.Errors, "error", "errors"), sum.Duration.Round(time.Millisecond), where)
	noteWithoutModel(stderr, withoutModel)
	switch {
	case replaced != nil:
		return fmt.Errorf("bench: %w; run the same command again, once the file is free, to resume (%s written now in all, %d before)",
			replaced, english.Count(sum.Run, "run", "runs"), total-todo)
	case writeFailed:
		file := "standard output"
		if c.out != "" {
			file = c.out
		}
		return fmt.Errorf("bench: writing the results to %s failed after %s written now, %d before: %w; the runs written are kept: run the same command again to resume once it can be written",
			file, english.Count(sum.Run, "run", "runs"), total-todo, err)
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "bench: %s not done; run the same command again to resume\n", english.Count(sum.NotRun, "run", "runs"))
		return errInterrupted
	case err != nil:
		return err
	case sum.Errors > 0:
		return errSilent
	}
	return nil
}

// noteWithoutModel says, per solver, how many runs had no model and what
// the solver ran as instead (solver.Entry.WithoutModel).
func noteWithoutModel(stderr io.Writer, runs map[string]int) {
	for _, name := range slices.Sorted(maps.Keys(runs)) {
		as := "without one"
		if e, ok := solver.Lookup(name); ok && e.WithoutModel != "" {
			as = "as " + e.WithoutModel
		}
		fmt.Fprintf(stderr, "bench: %s of %s had no model, so %s ran %s (count %s); give one with --model FILE\n",
			english.Count(runs[name], "run", "runs"), name, name, as, alphazero.WithoutModel)
	}
}

// applyPreset fills what --preset sets and the command line does not: the
// solvers, the levels and each budget axis (--time 0 removes the preset's
// time limits). It returns the level specs.
func applyPreset(c *benchConfig, set map[string]bool, specs []string) ([]string, error) {
	if c.preset == "" {
		return specs, nil
	}
	p, err := bench.LookupPreset(c.preset)
	if err != nil {
		return nil, usagef("bench: %v", err)
	}
	if !set["algo"] && len(c.externals) == 0 {
		if miss := p.Missing(); len(miss) > 0 {
			return nil, fmt.Errorf("bench: preset %s needs solvers that are not built yet: %s (registered: %s); choose others with --algo",
				p.Name, strings.Join(miss, ", "), strings.Join(bench.Registered(), ", "))
		}
		c.algos = p.Solvers
	}
	if len(specs) == 0 {
		specs = p.Levels
	}
	if !set["time"] {
		for _, t := range p.Times {
			c.times = append(c.times, t.String())
		}
	}
	if !set["iterations"] {
		for _, it := range p.Iterations {
			c.iters = append(c.iters, strconv.FormatInt(it, 10))
		}
	}
	return specs, nil
}

// benchSolvers reads --algo and --external into solver specs, gives each
// registered solver the --param values it takes, --threads and --model,
// and checks them.
func benchSolvers(c *benchConfig) ([]bench.SolverSpec, error) {
	if len(c.algos) == 0 && len(c.externals) == 0 {
		c.algos = listValue{"fess"}
	}
	var solvers []bench.SolverSpec
	for _, a := range c.algos {
		s, err := bench.ParseSolverSpec(a)
		if err != nil {
			return nil, usagef("bench: %v", err)
		}
		solvers = append(solvers, s)
	}
	for _, e := range c.externals {
		s, err := bench.ParseExternal(e)
		if err != nil {
			return nil, usagef("bench: %v", err)
		}
		solvers = append(solvers, s)
	}
	for name, v := range c.params {
		used := false
		for i := range solvers {
			if solvers[i].External != nil {
				continue
			}
			if e, ok := solver.Lookup(solvers[i].Name); ok && e.Takes(name) {
				if _, own := solvers[i].Params[name]; !own {
					if solvers[i].Params == nil {
						solvers[i].Params = map[string]string{}
					}
					solvers[i].Params[name] = v
				}
				used = true
			}
		}
		if !used {
			return nil, usagef("bench: no solver given takes parameter %q", name)
		}
	}
	var model bench.Model
	if c.model != "" && !slices.ContainsFunc(solvers, readsModel) {
		return nil, usagef("bench: --model: none of the solvers given reads a model (those that do: %s)", strings.Join(solver.ModelReaders(), ", "))
	}
	if c.model != "" {
		var readers []solver.Entry
		for _, s := range solvers {
			if e, _ := solver.Lookup(s.Name); readsModel(s) {
				readers = append(readers, e)
			}
		}
		if err := checkModel(c.model, readers...); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		var err error
		if model, err = bench.NewModel(c.model); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	seen := map[string]bool{}
	for i, s := range solvers {
		if s.External == nil {
			solvers[i].Threads = c.threads // part of each run's key and label
			if readsModel(s) {
				solvers[i].Model = model // likewise
			}
			if solvers[i].Optimize == "" {
				solvers[i].Optimize = c.opt.String() // likewise, when not the default
			}
			s = solvers[i]
		}
		if err := s.Check(); err != nil {
			hint := ""
			if _, known := solver.Lookup(s.Name); !known && i > 0 && i < len(c.algos) && len(s.Params) == 0 {
				hint = bench.ListHint(solvers[i-1], s.Name)
			}
			return nil, usagef("bench: %v%s", err, hint)
		}
		if e, ok := solver.Lookup(s.Name); ok && s.External == nil { // w=1.0 and w=1 are one run, resumed as one
			for k, v := range s.Params {
				if p, ok := e.Param(k); ok {
					s.Params[k] = p.Canonical(v)
				}
			}
		}
		if seen[s.Label()] {
			return nil, usagef("bench: solver %s given twice", s.Label())
		}
		seen[s.Label()] = true
	}
	return solvers, nil
}

// boundedRuns refuses, as a usage error, a run with an iteration limit
// alone on a solver that counts no iterations: it would never end.
func boundedRuns(solvers []bench.SolverSpec, budgets []bench.Budget) error {
	for _, b := range budgets {
		if b.Iterations == 0 || b.Time > 0 || b.Nodes > 0 {
			continue
		}
		for _, s := range solvers {
			if e, ok := solver.Lookup(s.Name); ok && s.External == nil && !e.Iterations {
				return usagef("bench: %s counts no iterations, so its runs with --iterations %d and no --time or --nodes have no limit: give one of them too (the solvers that count iterations: %s)",
					s.Name, b.Iterations, strings.Join(solver.IterationCounters(), ", "))
			}
		}
	}
	return nil
}

// readsModel says whether s is a registered solver that reads a model.
func readsModel(s bench.SolverSpec) bool {
	e, ok := solver.Lookup(s.Name)
	return s.External == nil && ok && e.ReadsModel()
}

// benchOut is where bench's records go: the --out file, whose runs are done
// already, or standard output.
type benchOut struct {
	sink     func(bench.Record) error
	done     func(key string) bool // nil: none
	doneKeys []string
	recorded []bench.RecordedLevel // the levels of the runs in the file already, each once
	records  []bench.Record        // the runs in the file already, with --sok
	settle   func() error          // after the last write: follows a file replaced meanwhile
	close    func() error
}

// openBenchOut opens --out for appending (with --dry-run, only reads it),
// or standard output without it. A last line cut short that it cuts off
// (or, with --dry-run, would) is said on stderr.
func openBenchOut(c *benchConfig, stdout, stderr io.Writer) (*benchOut, error) {
	o := &benchOut{close: func() error { return nil }, settle: func() error { return nil }}
	switch {
	case c.out != "" && !c.dryRun:
		made := missing(c.out)
		res, err := bench.OpenResults(c.out)
		if errors.As(err, new(*outfile.BusyError)) {
			return nil, fmt.Errorf("bench: --out %w", err)
		}
		if notResults(err) {
			return nil, usagef("bench: --out %v", err)
		}
		if err != nil {
			return nil, err
		}
		if n := res.Cut(); n > 0 {
			fmt.Fprintln(stderr, "bench: "+bench.CutNote(c.out, n, "cut off"))
		}
		res.Notify = func(note string) { fmt.Fprintln(stderr, "bench: "+note) }
		var failed error // the first write that failed
		o.done, o.doneKeys, o.recorded = res.Done, res.Keys(), res.Levels()
		o.settle = res.Settle
		o.sink = func(r bench.Record) error {
			err := res.Write(r)
			if failed == nil {
				failed = err
			}
			return err
		}
		o.close = func() error {
			if !errors.As(failed, new(*bench.ReplacedError)) { // else the path names another's file
				dropEmpty(c.out, made, failed)
			}
			return res.Close()
		}
		if c.sok != "" {
			// Read under the lock OpenResults holds, once the cut line is off.
			if o.records, err = bench.ReadFiles(nil, c.out); err != nil {
				res.Close()
				return nil, err
			}
		}
	case c.out != "":
		recs, err := bench.ReadFiles(stderr, c.out)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, r := range recs {
			o.doneKeys = append(o.doneKeys, r.Key)
		}
		o.recorded = bench.RecordedLevels(recs)
	default:
		o.sink = bench.NewJSONLWriter(stdout).Write
	}
	return o, nil
}

// parseBudgets reads --time, --nodes and --iterations. With none of them
// the time limit is 10s; with nodes or iterations only, there is none.
func parseBudgets(c *benchConfig) ([]bench.Budget, error) {
	var times []time.Duration
	for _, s := range c.times {
		d, err := parseDuration(s)
		if err != nil {
			return nil, usagef("bench: bad --time %q: %v", s, err)
		}
		times = append(times, d)
	}
	nodes, err := parseCounts("nodes", c.nodes)
	if err != nil {
		return nil, err
	}
	iters, err := parseCounts("iterations", c.iters)
	if err != nil {
		return nil, err
	}
	budgets := bench.Budgets(times, nodes, iters)
	if len(times) == 0 { // a run with no node or iteration limit either has the default time
		for i, b := range budgets {
			if b.Nodes == 0 && b.Iterations == 0 {
				budgets[i].Time = 10 * time.Second
			}
		}
	}
	return budgets, nil
}

func parseCounts(name string, list []string) ([]int64, error) {
	var out []int64
	for _, s := range list {
		n, err := parseCount(s)
		if err != nil {
			return nil, usagef("bench: bad --%s %q: %v", name, s, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseSeedList reads --seeds, whose items are numbers or ranges.
func parseSeedList(list []string) ([]uint64, error) {
	if len(list) == 0 {
		return []uint64{1}, nil
	}
	var out []uint64
	for _, s := range list {
		seeds, err := parseSeeds(s)
		if err != nil {
			return nil, usagef("bench: bad --seeds %q: %v", s, err)
		}
		out = append(out, seeds...)
	}
	return out, nil
}

// spellAsRecorded gives a level file the name the results file already
// knows it by, where it is typed another way (lv/x.xsb, ./lv/x.xsb, its
// absolute path, a link to it) or from another working directory
// (movedAs): so that a bench resumes, and the file's runs stay one
// collection in its report, however and wherever the file is typed.
// recorded are the levels of the runs in the results file.
func spellAsRecorded(es []levels.Entry, recorded []bench.RecordedLevel) {
	var names bench.FileNames
	known := map[string]bool{}
	for _, r := range recorded { // met first, so that the file keeps these names
		source, _ := bench.SplitLevelID(r.ID)
		names.Name(source)
		known[source] = true
	}
	elsewhere := recordedElsewhere(recorded)
	bases := map[string]bool{}
	for name := range elsewhere {
		bases[filepath.Base(name)] = true
	}
	unknown := map[string]map[int]string{} // the files the results file knows by no name, of a base name in elsewhere: their boards' hashes by position
	for _, e := range es {
		source := entrySource(e)
		name := names.Name(*source)
		if _, isFile := levels.File(name); isFile && name == *source && !known[name] && e.Level != nil && bases[filepath.Base(name)] {
			if unknown[name] == nil {
				unknown[name] = map[int]string{}
			}
			unknown[name][e.Level.Index] = bench.LevelHash(e.Level)
		}
		*source = name
	}
	moved := movedAs(unknown, elsewhere)
	for _, e := range es {
		source := entrySource(e)
		if name, ok := moved[*source]; ok {
			*source = name
		}
	}
}

// entrySource is where e's level keeps the file it came from.
func entrySource(e levels.Entry) *string {
	if e.Level != nil {
		return &e.Level.Source
	}
	return &e.Unloadable.Source
}

// recordedElsewhere returns the recorded level files that name no file
// from the working directory, with their boards' hashes by position.
func recordedElsewhere(recorded []bench.RecordedLevel) map[string]map[int]string {
	elsewhere := map[string]map[int]string{}
	checked := map[string]bool{}
	for _, r := range recorded {
		source, index := bench.SplitLevelID(r.ID)
		if !checked[source] {
			checked[source] = true
			if _, isFile := levels.File(source); isFile && missing(source) {
				elsewhere[source] = map[int]string{}
			}
		}
		if boards := elsewhere[source]; boards != nil && index > 0 {
			boards[index] = r.Hash
		}
	}
	return elsewhere
}

// movedAs maps each file of files (its boards' hashes by position) to the
// one file of elsewhere (recordedElsewhere) that has its base name and
// whose recorded boards are the file's at the positions both hold, at
// least one: the same file, named from another directory.
func movedAs(files, elsewhere map[string]map[int]string) map[string]string {
	moved := map[string]string{}
	for file, have := range files {
		var match []string
		for name, had := range elsewhere {
			if filepath.Base(name) == filepath.Base(file) && sameBoards(have, had) {
				match = append(match, name)
			}
		}
		if len(match) == 1 {
			moved[file] = match[0]
		}
	}
	return moved
}

// sameBoards reports whether two files' boards (hashes by position) agree
// at every position both hold, and both hold one at least.
func sameBoards(a, b map[int]string) bool {
	both := 0
	for i, h := range a {
		if g, ok := b[i]; ok {
			if g != h {
				return false
			}
			both++
		}
	}
	return both > 0
}
