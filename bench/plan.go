package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"soko/level"
	"soko/solve"
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
	// Optimize is the optimizer's policy for a registered solver's
	// solutions (solve.ParsePolicy; soko bench --optimize, --metric or
	// NAME:optimize=VALUE): "" or "pushes" (the default), "moves" or "off".
	// External programs' solutions are never optimized.
	Optimize string
}

// optimizeLabel is the policy as labels and keys write it: "" for the
// default.
func (s SolverSpec) optimizeLabel() string {
	if s.External != nil || s.Optimize == "pushes" {
		return ""
	}
	return s.Optimize
}

// Label is the solver's name in tables and keys: "wastar(p=2,w=200)", with
// threads=N after the parameters when N > 1 and then model=ID when it has
// a model: "portfolio(threads=2)", "alphazero(model=m.bin@1a2b3c4d)".
func (s SolverSpec) Label() string {
	return solverLabel(s.Name, s.Params, s.Threads, s.Model.ID, s.optimizeLabel())
}

// ParseSolverSpec reads "NAME" or "NAME:k=v:k=v" (parameters for that
// solver only), e.g. "wastar:w=1"; optimize=VALUE sets the optimizer's
// policy instead (SolverSpec.Optimize): "fess:optimize=off". The items of
// a list-valued parameter of a registered solver are joined by "+", since
// commas part the solvers of a list: "fess:strategies=plan+sink".
func ParseSolverSpec(s string) (SolverSpec, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	spec := SolverSpec{Name: parts[0]}
	entry, _ := solver.Lookup(spec.Name) // an unknown name has no parameters
	if spec.Name == "" {
		return spec, fmt.Errorf("empty solver name in %q", s)
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" || v == "" {
			return spec, fmt.Errorf("solver %q: want NAME:k=v, got %q", s, p)
		}
		if _, twice := spec.Params[k]; twice || k == "optimize" && spec.Optimize != "" {
			return spec, fmt.Errorf("solver %q: parameter %s given twice: give it once", s, k)
		}
		if k == "optimize" {
			pol, err := solve.ParsePolicy(v)
			if err != nil {
				return spec, fmt.Errorf("solver %q: %v", s, err)
			}
			spec.Optimize = pol.String()
			continue
		}
		if spec.Params == nil {
			spec.Params = map[string]string{}
		}
		if p, ok := entry.Param(k); ok && p.Kind == solver.List {
			v = strings.ReplaceAll(v, "+", ",")
		}
		spec.Params[k] = v
	}
	return spec, nil
}

// ListHint is what to say where part, a part of --algo's comma-separated
// list that names no solver, follows prev, one that does: when part is an
// item of one of prev's list-valued parameters, how to give it there.
func ListHint(prev SolverSpec, part string) string {
	e, ok := solver.Lookup(prev.Name)
	if !ok {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(prev.Params)) {
		v := prev.Params[k]
		if p, ok := e.Param(k); ok && p.Kind == solver.List && slices.Contains(p.Values, part) {
			return fmt.Sprintf("; %q is an item of %s's %s: join a list's items with + (%s:%s=%s+%s)",
				part, prev.Name, k, prev.Name, k, strings.ReplaceAll(v, ",", "+"), part)
		}
	}
	return ""
}

// Check reports an error when the solver is not registered, does not take
// one of its parameters or does not accept its value (solver.CheckParams).
func (s SolverSpec) Check() error {
	if s.External != nil {
		return nil
	}
	e, ok := solver.Lookup(s.Name)
	if !ok {
		return solver.UnknownError(s.Name)
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
	Level  *level.Level // nil for an unloadable level
	// Unloadable is a level of the benchmark that could not be loaded: the
	// run is an error record saying why, and the other levels run.
	Unloadable *level.Unloadable
	ID         string // level id: collection:index, or the file
	Hash       string // LevelHash(Level), or UnloadableHash(Unloadable)
	Budget     Budget
	Seed       uint64
}

// Key identifies the job's run in a results file (Record.Key).
func (j Job) Key() string {
	return runKey(j.Solver.Name, j.Solver.Params, j.Solver.Threads, j.Solver.Model.ID, j.Solver.optimizeLabel(), j.ID, j.Hash, j.Budget, j.Seed)
}

// UnloadableHash stands for LevelHash for a level that could not be
// loaded: a hash of the reason, so that once the level is mended, or fails
// for another reason, its runs are done again.
func UnloadableHash(u *level.Unloadable) string {
	h := sha256.Sum256([]byte("unloadable\n" + u.Err.Error()))
	return hex.EncodeToString(h[:])[:16]
}

// LevelID is a level's id in results: "microban:12", or the file name.
func LevelID(l *level.Level) string { return levelID(l.Source, l.Index) }

func levelID(source string, index int) string {
	if index > 0 {
		return source + ":" + strconv.Itoa(index)
	}
	return source
}

// Plan is every combination of seed, budget, level and solver of a
// benchmark, or the part of them a shard runs, in that nesting order (the
// last varies fastest): so a run cut short holds whole seeds and every
// solver on the same levels, a fair comparison as far as it went. The jobs
// are made one at a time as they are run, never listed, so a plan of
// billions of runs takes no more memory than one of ten. The order is
// deterministic, which sharding relies on.
type Plan struct {
	solvers      []SolverSpec
	levels       []*level.Level      // nil where bad holds an unloadable level
	bad          []*level.Unloadable // nil where levels holds a level
	ids, hashes  []string
	budgets      []Budget
	seeds        []uint64
	total        int64 // jobs of all shards
	shard, every int64 // this plan's jobs: indices shard, shard+every, …

	index *planIndex // built by Index on first use
}

// MaxRuns is the most jobs a plan may have (all shards together).
const MaxRuns = 1 << 40

// NewPlan makes the plan of every combination, each run once even if a
// solver, level, budget or seed is given twice. The unloadable levels come
// after lvls on the levels axis; their runs are error records. An error
// says when there are more than MaxRuns of them.
func NewPlan(solvers []SolverSpec, lvls []*level.Level, unloadable []*level.Unloadable, budgets []Budget, seeds []uint64) (*Plan, error) {
	return NewPlanContext(context.Background(), solvers, lvls, unloadable, budgets, seeds)
}

// NewPlanContext is NewPlan that stops when ctx ends, returning its error:
// hashing millions of levels takes seconds.
func NewPlanContext(ctx context.Context, solvers []SolverSpec, lvls []*level.Level, unloadable []*level.Unloadable, budgets []Budget, seeds []uint64) (*Plan, error) {
	p := &Plan{every: 1}
	seenSolver := map[string]bool{}
	for _, s := range solvers {
		if l := s.Label(); !seenSolver[l] {
			seenSolver[l] = true
			p.solvers = append(p.solvers, s)
		}
	}
	seenLevel := map[string]bool{}
	for i, l := range lvls {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		id, hash := LevelID(l), LevelHash(l)
		if k := id + "|" + hash; !seenLevel[k] {
			seenLevel[k] = true
			p.levels, p.bad = append(p.levels, l), append(p.bad, nil)
			p.ids, p.hashes = append(p.ids, id), append(p.hashes, hash)
		}
	}
	for _, u := range unloadable {
		id, hash := levelID(u.Source, u.Index), UnloadableHash(u)
		if k := id + "|" + hash; !seenLevel[k] {
			seenLevel[k] = true
			p.levels, p.bad = append(p.levels, nil), append(p.bad, u)
			p.ids, p.hashes = append(p.ids, id), append(p.hashes, hash)
		}
	}
	seenBudget := map[string]bool{}
	for _, b := range budgets {
		if k := b.String(); !seenBudget[k] {
			seenBudget[k] = true
			p.budgets = append(p.budgets, b)
		}
	}
	seenSeed := make(map[uint64]bool, len(seeds))
	for _, s := range seeds {
		if !seenSeed[s] {
			seenSeed[s] = true
			p.seeds = append(p.seeds, s)
		}
	}
	p.total = 1
	for _, n := range []int{len(p.seeds), len(p.budgets), len(p.levels), len(p.solvers)} {
		if n > 0 && p.total > MaxRuns/int64(n) {
			return nil, fmt.Errorf("%d seeds x %d budgets x %d levels x %d solvers is more than the %d runs a bench may plan; give fewer seeds or budgets",
				len(p.seeds), len(p.budgets), len(p.levels), len(p.solvers), int64(MaxRuns))
		}
		p.total *= int64(n)
	}
	return p, nil
}

// Shard returns the part of the plan that shard i of n runs: every n-th job
// starting at the i-th (0-based), so that shards are balanced and together
// cover all jobs exactly once.
func (p *Plan) Shard(i, n int) *Plan {
	q := *p
	q.shard, q.every = int64(i), int64(max(n, 1))
	q.index = nil
	return &q
}

// Len is the number of jobs in the plan (in its shard).
func (p *Plan) Len() int64 {
	if p.shard >= p.total {
		return 0
	}
	return (p.total-p.shard-1)/p.every + 1
}

// Axes are the sizes of the plan's four axes, duplicates removed.
func (p *Plan) Axes() (solvers, levels, budgets, seeds int) {
	return len(p.solvers), len(p.levels), len(p.budgets), len(p.seeds)
}

// job is the job of index k of all shards.
func (p *Plan) job(k int64) Job {
	ns, nl, nb := int64(len(p.solvers)), int64(len(p.levels)), int64(len(p.budgets))
	si, k := k%ns, k/ns
	li, k := k%nl, k/nl
	bi, k := k%nb, k/nb
	return Job{Solver: p.solvers[si], Level: p.levels[li], Unloadable: p.bad[li], ID: p.ids[li], Hash: p.hashes[li], Budget: p.budgets[bi], Seed: p.seeds[k]}
}

// Jobs yields the plan's jobs in order, leaving out those whose key done
// reports (nil: none).
func (p *Plan) Jobs(done func(key string) bool) iter.Seq[Job] {
	return func(yield func(Job) bool) {
		for k := p.shard; k < p.total; k += p.every {
			j := p.job(k)
			if done != nil && done(j.Key()) {
				continue
			}
			if !yield(j) {
				return
			}
		}
	}
}

// Pending counts the plan's jobs not among the done keys: the plan's
// length less the done keys that are jobs of it.
func (p *Plan) Pending(done []string) int64 {
	n := p.Len()
	for _, key := range done {
		if p.has(key) {
			n--
		}
	}
	return n
}

// planIndex finds a run's key among a plan's jobs without listing them.
type planIndex struct {
	pairs   map[string][2]int64 // solver label|level id|hash → solver and level index
	budgets map[string]int64    // Budget.String() → index
	seeds   map[uint64]int64
}

// has reports whether key (Job.Key) is a job of the plan, in its shard.
func (p *Plan) has(key string) bool {
	if p.index == nil {
		ix := &planIndex{pairs: map[string][2]int64{}, budgets: map[string]int64{}, seeds: make(map[uint64]int64, len(p.seeds))}
		for si, s := range p.solvers {
			for li := range p.levels {
				ix.pairs[s.Label()+"|"+p.ids[li]+"|"+p.hashes[li]] = [2]int64{int64(si), int64(li)}
			}
		}
		for bi, b := range p.budgets {
			ix.budgets[b.String()] = int64(bi)
		}
		for i, s := range p.seeds {
			ix.seeds[s] = int64(i)
		}
		p.index = ix
	}
	rest, seedText, ok1 := cutLast(key)
	rest, budgetText, ok2 := cutLast(rest)
	seed, err := strconv.ParseUint(seedText, 10, 64)
	if !ok1 || !ok2 || err != nil {
		return false
	}
	pair, ok3 := p.index.pairs[rest]
	bi, ok4 := p.index.budgets[budgetText]
	xi, ok5 := p.index.seeds[seed]
	if !ok3 || !ok4 || !ok5 {
		return false
	}
	ns, nl, nb := int64(len(p.solvers)), int64(len(p.levels)), int64(len(p.budgets))
	k := ((xi*nb+bi)*nl+pair[1])*ns + pair[0]
	return k%p.every == p.shard
}

// cutLast splits s at its last '|'.
func cutLast(s string) (before, after string, found bool) {
	i := strings.LastIndexByte(s, '|')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
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

// ParseShard reads "I/N" (0 ≤ I < N), or "N" or "/N", whose index is then
// read from the environment variable JOB_COMPLETION_INDEX (set by a
// Kubernetes Indexed Job); getenv is os.Getenv outside tests. The numbers
// are written as every number of soko's flags is (solver.IsDecimal): no
// plus sign, no blanks.
func ParseShard(s string, getenv func(string) string) (i, n int, err error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	is, ns, hasIndex := strings.Cut(s, "/")
	if !hasIndex {
		is, ns = "", s
	}
	n, ok := shardNumber(ns)
	if !ok || n < 1 {
		return 0, 0, fmt.Errorf("bad shard %q: want I/N with 0 <= I < N, or N with JOB_COMPLETION_INDEX set", s)
	}
	if is == "" {
		env := getenv("JOB_COMPLETION_INDEX")
		if env == "" {
			return 0, 0, fmt.Errorf("shard %q has no index and JOB_COMPLETION_INDEX is not set", s)
		}
		is = env
	}
	i, ok = shardNumber(is)
	if !ok || i >= n {
		return 0, 0, fmt.Errorf("bad shard index %q of %d: want 0 <= I < N", is, n)
	}
	return i, n, nil
}

// maxShards bounds a shard count: far more than a bench has runs.
const maxShards = 1 << 30

// shardNumber reads a shard count or index: a whole number from 0 to
// maxShards in soko's number syntax (solver.ParseDecimal), without a sign.
func shardNumber(s string) (int, bool) {
	x, err := solver.ParseDecimal(s)
	if err != nil || strings.HasPrefix(s, "-") || x > maxShards || x != math.Trunc(x) {
		return 0, false
	}
	return int(x), true
}
