package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"soko/level"
	"soko/solver"
)

// SolverSpec is one solver of a benchmark: a registered solver with
// parameters and threads, or an external program.
type SolverSpec struct {
	Name     string
	Params   map[string]string
	Threads  int       // goroutines each run may use (solver.Options.Threads, soko bench --threads); 0 means 1
	Model    Model     // the model file each run is given (solver.Options.Model, soko bench --model); zero for none
	External *External // nil for a registered solver
}

// Label is the solver's name in tables and keys: "wastar(p=2,w=200)", with
// threads=N after the parameters when N > 1 and then model=ID when it has
// a model: "portfolio(threads=2)", "alphazero(model=m.bin@1a2b3c4d)".
func (s SolverSpec) Label() string { return solverLabel(s.Name, s.Params, s.Threads, s.Model.ID) }

// ParseSolverSpec reads "NAME" or "NAME:k=v:k=v" (parameters for that
// solver only), e.g. "wastar:w=1".
func ParseSolverSpec(s string) (SolverSpec, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	spec := SolverSpec{Name: parts[0]}
	if spec.Name == "" {
		return spec, fmt.Errorf("empty solver name in %q", s)
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" || v == "" {
			return spec, fmt.Errorf("solver %q: want NAME:k=v, got %q", s, p)
		}
		if spec.Params == nil {
			spec.Params = map[string]string{}
		}
		spec.Params[k] = v
	}
	return spec, nil
}

// Check reports an error when the solver is not registered, does not take
// one of its parameters or does not accept its value (solver.CheckParams).
func (s SolverSpec) Check() error {
	if s.External != nil {
		return nil
	}
	e, ok := solver.Lookup(s.Name)
	if !ok {
		return fmt.Errorf("unknown solver %q (registered: %s)", s.Name, strings.Join(Registered(), ", "))
	}
	return solver.CheckParams(e, s.Params)
}

// Registered returns the names of the registered solvers.
func Registered() []string {
	var names []string
	for _, e := range solver.Entries() {
		names = append(names, e.Name)
	}
	return names
}

// Job is one run to do.
type Job struct {
	Solver SolverSpec
	Level  *level.Level
	ID     string // level id: collection:index, or the file
	Hash   string // LevelHash(Level)
	Budget Budget
	Seed   uint64
}

// Key identifies the job's run in a results file (Record.Key).
func (j Job) Key() string {
	return runKey(j.Solver.Name, j.Solver.Params, j.Solver.Threads, j.Solver.Model.ID, j.ID, j.Hash, j.Budget, j.Seed)
}

// LevelID is a level's id in results: "microban:12", or the file name.
func LevelID(l *level.Level) string {
	if l.Index > 0 {
		return l.Source + ":" + strconv.Itoa(l.Index)
	}
	return l.Source
}

// Jobs lists every combination of seed, budget, level and solver, in that
// nesting order (the last varies fastest), each run once even if a level,
// budget or seed is given twice. So a run cut short holds whole seeds and
// every solver on the same levels, a fair comparison as far as it went. The
// order is deterministic, which Shard relies on.
func Jobs(solvers []SolverSpec, lvls []*level.Level, budgets []Budget, seeds []uint64) []Job {
	ids := make([]string, len(lvls))
	hashes := make([]string, len(lvls))
	for i, l := range lvls {
		ids[i], hashes[i] = LevelID(l), LevelHash(l)
	}
	var jobs []Job
	seen := map[string]bool{}
	for _, seed := range seeds {
		for _, b := range budgets {
			for i, l := range lvls {
				for _, s := range solvers {
					j := Job{Solver: s, Level: l, ID: ids[i], Hash: hashes[i], Budget: b, Seed: seed}
					if k := j.Key(); !seen[k] {
						seen[k] = true
						jobs = append(jobs, j)
					}
				}
			}
		}
	}
	return jobs
}

// Budgets is the cross product of time, node and iteration limits; an empty
// list stands for "no limit" on that axis.
func Budgets(times []time.Duration, nodes, iterations []int64) []Budget {
	if len(times) == 0 {
		times = []time.Duration{0}
	}
	if len(nodes) == 0 {
		nodes = []int64{0}
	}
	if len(iterations) == 0 {
		iterations = []int64{0}
	}
	var out []Budget
	for _, it := range iterations {
		for _, n := range nodes {
			for _, t := range times {
				out = append(out, Budget{Time: t, Nodes: n, Iterations: it})
			}
		}
	}
	return out
}

// Shard returns the jobs of shard i of n: every n-th job starting at the
// i-th (0-based), so that shards are balanced and together cover all jobs
// exactly once.
func Shard(jobs []Job, i, n int) []Job {
	if n <= 1 {
		return jobs
	}
	var out []Job
	for k := i; k < len(jobs); k += n {
		out = append(out, jobs[k])
	}
	return out
}

// ParseShard reads "I/N" (0 ≤ I < N), or "N" or "/N", whose index is then
// read from the environment variable JOB_COMPLETION_INDEX (set by a
// Kubernetes Indexed Job); getenv is os.Getenv outside tests.
func ParseShard(s string, getenv func(string) string) (i, n int, err error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	is, ns, hasIndex := strings.Cut(s, "/")
	if !hasIndex {
		is, ns = "", s
	}
	n, err = strconv.Atoi(ns)
	if err != nil || n < 1 {
		return 0, 0, fmt.Errorf("bad shard %q: want I/N with 0 <= I < N, or N with JOB_COMPLETION_INDEX set", s)
	}
	if is == "" {
		env := getenv("JOB_COMPLETION_INDEX")
		if env == "" {
			return 0, 0, fmt.Errorf("shard %q has no index and JOB_COMPLETION_INDEX is not set", s)
		}
		is = env
	}
	i, err = strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("bad shard index %q of %d: want 0 <= I < N", is, n)
	}
	return i, n, nil
}

// Pending returns the jobs whose runs are not done yet.
func Pending(jobs []Job, done func(key string) bool) []Job {
	var out []Job
	for _, j := range jobs {
		if !done(j.Key()) {
			out = append(out, j)
		}
	}
	return out
}
