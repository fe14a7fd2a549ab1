package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"soko/level"
)

// Statuses a Record can have beyond the solver's own (solver.Status names:
// "solved", "no solution", "time limit", "memory limit", "node limit",
// "cancelled", "iteration limit", "depth limit", "gave up").
const (
	StatusError  = "error"  // the run could not be done, or its solution did not verify
	StatusFailed = "failed" // an external program ended without a solution
)

// What a Record's cpu_s counts (Record.CPUScope); see Runner.
const (
	CPUThread   = "thread"   // the thread the run was called on: all of a run on one goroutine; absent in older files means this
	CPUProcess  = "process"  // soko's whole process while the run had it alone: every goroutine of the run, and the garbage collector
	CPUPrograms = "programs" // every process of an external program's run
	CPUNone     = "none"     // not measured (cpu_s is 0): several threads beside other runs, or no clock to read
)

// Record is one finished run: one line of a results file.
type Record struct {
	Key       string            `json:"key"`
	Solver    string            `json:"solver"`
	Params    map[string]string `json:"params,omitempty"`
	External  string            `json:"external,omitempty"` // the command template of an external solver
	Level     string            `json:"level"`              // collection:position, or the file (levels.Entry.ID)
	Title     string            `json:"title,omitempty"`    // what the file calls the level (level.Label)
	LevelHash string            `json:"level_hash"`         // see LevelHash
	Budget    Budget            `json:"budget"`
	Seed      uint64            `json:"seed"`

	Status   string `json:"status"`
	Verified bool   `json:"verified"` // the solution was replayed by package verify
	Pushes   int    `json:"pushes"`
	Moves    int    `json:"moves"`
	// The optimizer (solve.Run): Optimize is its policy when not the
	// default ("off", or "moves" for moves first; part of the key and
	// label); FoundPushes and FoundMoves are the solver's own solution,
	// AStarPushes and AStarMoves A*'s when the found one wandered and A*
	// solved the level again (solve.WanderRatio), and OptimizeS the
	// optimizer's part of WallS, that search included; SolveS is the
	// search's part, which alone is bounded by the budget's time (see
	// Runner). Optimize is "pushes@5s" (or "moves@none") when the
	// optimizer's time is not the default. Records written before soko
	// optimized by default have none of them, and hold the solver's own
	// solution in Pushes and Moves.
	Optimize    string  `json:"optimize,omitempty"`
	FoundPushes int     `json:"found_pushes,omitempty"`
	FoundMoves  int     `json:"found_moves,omitempty"`
	AStarPushes int     `json:"astar_pushes,omitempty"`
	AStarMoves  int     `json:"astar_moves,omitempty"`
	OptimizeS   float64 `json:"optimize_s,omitempty"`
	SolveS      float64 `json:"solve_s,omitempty"` // the search's part of WallS, to its verified answer; see SolveTime
	WallS       float64 `json:"wall_s"`
	CPUS        float64 `json:"cpu_s"` // CPU seconds of this run alone, as CPUScope says; see Runner
	CPUScope    string  `json:"cpu_scope,omitempty"`

	Expanded     int64            `json:"expanded,omitempty"`
	Generated    int64            `json:"generated,omitempty"`
	Stored       int64            `json:"stored,omitempty"`
	Iterations   int64            `json:"iterations,omitempty"`
	TreeSize     int64            `json:"tree_size,omitempty"`
	UniqueStates int64            `json:"unique_states,omitempty"`
	Counts       map[string]int64 `json:"counts,omitempty"`       // the solver's own counters (solver.Stats.Counts)
	Strategy     string           `json:"strategy,omitempty"`     // the portfolio member that solved the level (solver.Stats.Strategy)
	Threads      int              `json:"threads,omitempty"`      // soko bench --threads, when more than 1 (part of the key); absent means 1
	Model        string           `json:"model,omitempty"`        // soko bench --model as ModelID names it (part of the key); absent means none
	PeakBytes    int64            `json:"peak_bytes"`             // the search's tables (Stats.Bytes); for external programs the largest max RSS of their processes
	MemoryLimit  int64            `json:"memory_limit,omitempty"` // the memory budget the run had

	Solution string `json:"solution,omitempty"`
	Error    string `json:"error,omitempty"`

	// Arm names the results file the run was read from when a report takes
	// each file as an arm of its own (ReadArms), such as two builds' runs
	// of one bench; it is part of the label and never written.
	Arm string `json:"-"`
}

// CPUMeasured reports whether CPUS holds the run's CPU time.
func (r *Record) CPUMeasured() bool { return r.CPUScope != CPUNone }

// Solved reports whether the run found a verified solution.
func (r *Record) Solved() bool { return r.Status == "solved" && r.Verified }

// SolverLabel names the solver with its parameters, threads and model, as
// SolverSpec.Label does: "wastar(p=2,w=200)", "portfolio(threads=2)",
// "alphazero(model=m.bin@1a2b3c4d)". Runs with different threads or models
// are different rows of a report, and so are the arms (Arm) of one:
// "fess@base", "fess@new".
func (r *Record) SolverLabel() string {
	label := solverLabel(r.Solver, r.Params, r.Threads, r.Model, r.Optimize)
	if r.Arm != "" {
		label += "@" + r.Arm
	}
	return label
}

// Collection is the part of the level id before the last ':', or the whole
// id when it has none: an embedded collection's name, or the level file as
// it was named on the command line. Reports show a file by its base name
// (see collectionNames).
func (r *Record) Collection() string {
	if i := strings.LastIndexByte(r.Level, ':'); i >= 0 {
		return r.Level[:i]
	}
	return r.Level
}

func solverLabel(name string, params map[string]string, threads int, model, optimize string) string {
	args := formatParams(params)
	if threads > 1 {
		if args != "" {
			args += ","
		}
		args += "threads=" + strconv.Itoa(threads)
	}
	if model != "" {
		if args != "" {
			args += ","
		}
		args += "model=" + model
	}
	if optimize != "" {
		if args != "" {
			args += ","
		}
		args += "optimize=" + optimize
	}
	if args == "" {
		return name
	}
	return name + "(" + args + ")"
}

func formatParams(params map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		parts = append(parts, k+"="+params[k])
	}
	return strings.Join(parts, ",")
}

// runKey identifies a run: solver, parameters, threads, model, optimizer
// policy (when not the default), level id and hash, budget, seed. The level id is part of it so that two levels with the same
// board in one benchmark are two runs; the hash, so that an edited level
// file is run again. One thread leaves the key as it was before threads
// existed, so older results files resume.
func runKey(solverName string, params map[string]string, threads int, model, optimize, levelID, hash string, b Budget, seed uint64) string {
	return strings.Join([]string{solverLabel(solverName, params, threads, model, optimize), levelID, hash, b.String(), strconv.FormatUint(seed, 10)}, "|")
}

// RunKey is the key of the run r records, made from its fields as
// runKey makes it.
func (r *Record) RunKey() string {
	return runKey(r.Solver, r.Params, r.Threads, r.Model, r.Optimize, r.Level, r.LevelHash, r.Budget, r.Seed)
}

// fixThreadsKey gives a record written with threads > 1 but a key without
// them (soko bench before threads were in the key) the key it has now, so
// that resuming or merging does not take it for a one-thread run.
func fixThreadsKey(r *Record) {
	if r.Threads > 1 && r.Key == runKey(r.Solver, r.Params, 1, r.Model, r.Optimize, r.Level, r.LevelHash, r.Budget, r.Seed) {
		r.Key = r.RunKey()
	}
}

// LevelHash is a short hash of a level's board: the first 16 hex digits of
// the SHA-256 of its rows without trailing blanks, one per line. Titles and
// comments do not change it.
func LevelHash(l *level.Level) string {
	h := sha256.New()
	for _, r := range l.Rows {
		io.WriteString(h, strings.TrimRight(r, " "))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// SolveTime is the seconds the search took to its answer: SolveS, or, in
// records written before it was kept, WallS less the optimizer's part.
func (r Record) SolveTime() float64 {
	if r.SolveS > 0 {
		return r.SolveS
	}
	return max(r.WallS-r.OptimizeS, 0)
}
