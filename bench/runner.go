package bench

import (
	"context"
	"io"
	"iter"
	"runtime"
	"sync"
	"time"

	"soko/internal/progress"
	"soko/level"
	"soko/solve"
	"soko/solver"
)

// Runner runs jobs on a pool of workers.
//
// CPU time (Record.CPUS, with Record.CPUScope saying what it counts): each
// run of a registered solver happens on a goroutine locked to its OS thread
// (runtime.LockOSThread). A run with one thread searches on that goroutine,
// and its CPU time is the thread's user+system time before and after
// (CPUThread; clock_gettime CLOCK_THREAD_CPUTIME_ID on Linux): the run's own
// even while other runs share the process, with the garbage collector's
// work the run was charged with (assists) but not the background
// collector's. A run with more threads (SolverSpec.Threads) searches on
// goroutines of its own, which no thread's clock follows; when it is the
// only run in the process (one worker) its CPU time is the process's before
// and after (CPUProcess: every goroutine of the run, and the collector's),
// and beside other runs (several workers) it is not measured (CPUNone,
// CPUS 0): the process's time would mix the runs. Where no clock can be
// read, CPUNone too. External programs report the CPU time of all their
// processes (CPUPrograms) and the largest peak resident memory of any one
// of them (see External).
//
// Peak memory is Stats.Bytes: the tables the search holds at the end, which
// for the solvers of soko is their largest size.
//
// Time: a registered solver's run goes through solve.Run, whose search gets
// the job's whole budget (its time limit included) and whose optimizer
// then gets a time of its own (the policy's, solve.Policy.Time). A record
// keeps both: SolveS, the search to its verified answer, and OptimizeS,
// the optimizer's (A*'s search again included); WallS is the whole run, so
// it may exceed the time limit by the optimizer's time.
type Runner struct {
	Workers    int                // runs at once; 0 means runtime.NumCPU()
	Memory     int64              // memory budget of each run (solver.Budget.Memory); 0: none
	NoSolution bool               // leave the LURD out of the records
	Progress   io.Writer          // where a progress line is drawn (a terminal), or nil
	Write      func(Record) error // the sink; called from one goroutine at a time
}

// Summary counts what a Run did.
type Summary struct {
	Jobs     int // jobs given
	Run      int // runs finished and written
	Solved   int
	Errors   int
	NotRun   int // left when cancelled (running ones included: they are not written)
	Duration time.Duration
}

// Run runs count jobs, taken one at a time from jobs as workers come free,
// and writes each finished run. When ctx is cancelled it stops handing out
// jobs; runs that were cut short are not written, so a later Run with the
// same results file does them again. It returns the first write error, or
// ctx's error when cancelled.
func (r *Runner) Run(ctx context.Context, count int, jobs iter.Seq[Job]) (Summary, error) {
	start := time.Now()
	workers := r.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, max(count, 1))
	prog := progress.New(r.Progress, count)
	defer prog.Stop()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type done struct {
		rec Record
		ok  bool // finished (not cut short by cancellation)
	}
	in := make(chan Job)
	out := make(chan done)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for j := range in {
				slot := prog.Begin(j.Solver.Label() + " " + j.ID + " " + j.Budget.String())
				rec, ok := r.runOne(ctx, j, workers == 1, prog, slot)
				prog.End(slot, rec.Solved())
				out <- done{rec, ok}
			}
		}()
	}
	go func() {
		defer close(in)
		for j := range jobs {
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()

	sum := Summary{Jobs: count}
	var werr error
	for d := range out {
		if !d.ok || werr != nil {
			continue
		}
		if err := r.Write(d.rec); err != nil {
			werr = err
			cancel()
			continue
		}
		sum.Run++
		switch {
		case d.rec.Status == StatusError:
			sum.Errors++
		case d.rec.Solved():
			sum.Solved++
		}
	}
	sum.NotRun = sum.Jobs - sum.Run
	sum.Duration = time.Since(start)
	if werr != nil {
		return sum, werr
	}
	return sum, ctx.Err()
}

// runOne does one job, alone in the process or not; ok is false when
// cancellation cut it short.
func (r *Runner) runOne(ctx context.Context, j Job, alone bool, prog *progress.Line, slot int) (Record, bool) {
	rec := Record{
		Key: j.Key(), Solver: j.Solver.Name, Params: j.Solver.Params,
		Level: j.ID, LevelHash: j.Hash,
		Budget: j.Budget, Seed: j.Seed, MemoryLimit: r.Memory,
	}
	if j.Solver.Threads > 1 {
		rec.Threads = j.Solver.Threads
	}
	rec.Model = j.Solver.Model.ID
	if u := j.Unloadable; u != nil {
		rec.Title, rec.Status, rec.Error, rec.CPUScope = u.Label(), StatusError, u.Err.Error(), CPUNone
		if j.Solver.External != nil {
			rec.External = j.Solver.External.Template
		}
		return rec, true
	}
	rec.Title = j.Level.Label()
	if j.Solver.External != nil {
		rec.External = j.Solver.External.Template
		ok := j.Solver.External.run(ctx, j, &rec)
		if r.NoSolution {
			rec.Solution = ""
		}
		return rec, ok
	}
	e, found := solver.Lookup(j.Solver.Name)
	if !found {
		rec.Status, rec.Error = StatusError, "solver "+j.Solver.Name+" is not registered"
		return rec, true
	}
	opts := solver.Options{
		Budget:  solver.Budget{Time: j.Budget.Time, Nodes: j.Budget.Nodes, Iterations: j.Budget.Iterations, Memory: r.Memory},
		Seed:    j.Seed,
		Params:  j.Solver.Params,
		Threads: j.Solver.Threads,
		Model:   j.Solver.Model.Path,
	}
	if prog.Active() {
		opts.Progress = func(p solver.Progress) { prog.Update(slot, p) }
	}
	clock, scope := threadCPU, CPUThread
	switch {
	case j.Solver.Threads > 1 && alone:
		clock, scope = processCPU, CPUProcess
	case j.Solver.Threads > 1:
		clock = func() time.Duration { return -1 }
	}
	cpu0 := clock()
	t0 := time.Now()
	pol, err := solve.ParsePolicy(j.Solver.Optimize)
	if err != nil {
		rec.Status, rec.Error, rec.CPUScope = StatusError, err.Error(), CPUNone
		return rec, true
	}
	rec.Optimize = j.Solver.optimizeLabel()
	res, err := solve.Run(ctx, e.New(), j.Level, opts, pol)
	rec.WallS = time.Since(t0).Seconds()
	rec.CPUScope = CPUNone
	if cpu0 >= 0 {
		if cpu1 := clock(); cpu1 >= cpu0 {
			rec.CPUS, rec.CPUScope = (cpu1 - cpu0).Seconds(), scope
		}
	}
	if ctx.Err() != nil && (err != nil || res.Status == solver.Cancelled || (res.Status == solver.Solved && !pol.Off && !res.Complete)) {
		return rec, false // cut short, the search or its optimization: run again on resume
	}
	if err != nil {
		rec.Status, rec.Error = StatusError, err.Error()
		return rec, true
	}
	fillStats(&rec, res.Result)
	rec.SolveS = res.SolveTime.Seconds()
	if res.Status == solver.Solved {
		rec.Verified = true // solver.Run replayed it, and Optimize its result
		if !pol.Off {
			rec.FoundPushes, rec.FoundMoves, rec.OptimizeS = res.Found.Pushes, res.Found.Moves, res.Time.Seconds()
			rec.AStarPushes, rec.AStarMoves = res.Resolved.Pushes, res.Resolved.Moves
		}
		if !r.NoSolution {
			rec.Solution = level.FormatLURD(res.Moves)
		}
	}
	return rec, true
}

func fillStats(rec *Record, res solver.Result) {
	st := res.Stats
	rec.Status = res.Status.String()
	rec.Expanded, rec.Generated, rec.Stored = st.Expanded, st.Generated, st.Stored
	rec.Iterations, rec.TreeSize, rec.UniqueStates = st.Iterations, st.TreeSize, st.UniqueStates
	rec.Counts, rec.Strategy = st.Counts, st.Strategy
	rec.PeakBytes = st.Bytes
	if res.Status == solver.Solved {
		rec.Pushes, rec.Moves = res.Pushes, len(res.Moves)
	}
}
