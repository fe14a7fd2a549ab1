// Package solver defines what every Sokoban solver in soko shares: the
// Solver interface, one Budget type (time, nodes, iterations, memory), the
// Result with its Status and statistics, progress events for front ends, a
// registry of solvers by name, and Run, which replays every solution with the
// independent verifier (package verify) before anyone sees it.
//
// Portfolio makes one Solver out of several strategies, its members, each
// with a share of the budget, run by one scheduler, the rounds
// (rounds.go): a member runs once on its share, or, resumable, in slices
// of growing length, each resumed where it paused, a stalled one yielding
// its turns; with Options.Threads (soko --threads) several at once. Its
// documentation says how to build one, how the budget is shared and what
// its Stats report. The solver registered as "portfolio" is the small
// example: astar, then greedy; fess's strategies are the large one.
package solver

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"soko/internal/suggest"
	"soko/level"
	"soko/verify"
)

// Status says how a search ended.
type Status int

// The statuses a search can end with. NoSolution is a proof: the search
// exhausted a complete space with sound pruning only. A search that ends
// without a solution for any other reason says which: a budget, a depth
// limit, or GaveUp.
const (
	Solved Status = iota
	NoSolution
	TimeLimit
	MemoryLimit
	NodeLimit
	Cancelled
	IterationLimit
	DepthLimit // the state space within a depth limit was exhausted
	// GaveUp: the search ran out of work without a proof, because it is
	// incomplete (a goal-room macro that may lose solutions, a tree whose
	// branches a cap or a random rollout cut off) or because its horizon
	// was reached.
	GaveUp
)

var statusNames = [...]string{"solved", "no solution", "time limit", "memory limit", "node limit", "cancelled", "iteration limit", "depth limit", "gave up"}

// Statuses returns every status, in order.
func Statuses() []Status {
	all := make([]Status, len(statusNames))
	for i := range all {
		all[i] = Status(i)
	}
	return all
}

func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("status(%d)", int(s))
	}
	return statusNames[s]
}

// MarshalText writes the status name, for JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// Budget bounds a search. A zero field means no limit.
type Budget struct {
	Time       time.Duration // wall-clock time
	Nodes      int64         // states expanded
	Iterations int64         // iterations, for iterative solvers such as MCTS
	Memory     int64         // bytes the search may hold: its tables get Tables() of it
}

// headroomPart sets the share of Budget.Memory kept out of a search's
// tables: an eighth, for what the process holds beside them while the
// runtime's soft memory limit (set to the budgets) keeps its heap near
// Memory: garbage between collections, a hash table's old slots while it
// doubles, buffers of one expansion.
const headroomPart = 8

// Tables returns the bytes a search's own tables (Stats.Bytes) may hold:
// Memory less an eighth of headroom; 0 when Memory is 0 (no limit).
func (b Budget) Tables() int64 {
	return b.Memory - b.Memory/headroomPart
}

// TablesLeft is what Tables leaves once held bytes are taken, at least 1;
// 0 without a memory limit.
func (b Budget) TablesLeft(held int64) int64 {
	if b.Memory <= 0 {
		return 0
	}
	return max(b.Tables()-held, 1)
}

// Stats are a search's counters.
type Stats struct {
	Expanded  int64         `json:"expanded"`  // states expanded (their pushes generated)
	Generated int64         `json:"generated"` // successor states generated
	Stored    int64         `json:"stored"`    // distinct states stored
	Bytes     int64         `json:"bytes"`     // memory held by the search's tables at the end
	Bound     int           `json:"bound"`     // best lower bound on the solution length proven so far, if any
	Elapsed   time.Duration `json:"elapsed_ns"`

	// Iterative solvers (MCTS) also report these.
	Iterations   int64 `json:"iterations,omitempty"`    // iterations run
	TreeSize     int64 `json:"tree_size,omitempty"`     // nodes in the tree at the end
	UniqueStates int64 `json:"unique_states,omitempty"` // distinct states seen

	// Counts holds a solver's own counters by name, such as the learning
	// solvers' episodes and how often Q* took its A* action.
	Counts map[string]int64 `json:"counts,omitempty"`

	// Strategy names the member of a Portfolio that solved the level (in
	// progress events: the member that sent the event).
	Strategy string `json:"strategy,omitempty"`
}

// Progress is an event sent while a search runs.
type Progress struct {
	Stats
	// Board is the most promising position found so far, as XSB rows of
	// the level's grid, when the solver reports one (see Guard.Best).
	Board []string `json:"board,omitempty"`
	// Detail describes that position in a few words, such as "boxes on
	// goals 5 of 12", when the solver gives one (see Guard.Describe).
	Detail string `json:"detail,omitempty"`
}

// Options are passed to every Solve call.
type Options struct {
	Budget   Budget
	Seed     uint64            // for randomised solvers; runs with equal seeds are identical
	Params   map[string]string // solver-specific parameters, such as "w" or "c"; see Entry.Params and CheckParams
	Model    string            // a trained model file for the learning solvers (soko solve --model); "" for none
	Threads  int               // goroutines the solver may search with (soko --threads); 0 means 1; see Portfolio
	Progress func(Progress)    // called from the solver's goroutine about ten times a second; may be nil
	Trace    *Trace            // where the solver may write its trace (soko solve --trace); nil: off
}

// Result is what a search found.
type Result struct {
	Status Status
	Moves  []level.Move // the solution, when Status is Solved
	Pushes int          // pushes in the solution
	Stats  Stats
}

// Solver is a Sokoban search algorithm.
type Solver interface {
	// Solve searches for a solution of l within the options' budget. It
	// honours ctx's cancellation. An error means the level could not be
	// searched at all; running out of budget is a Status, not an error.
	Solve(ctx context.Context, l *level.Level, opts Options) (Result, error)
}

// Entry describes a registered solver.
type Entry struct {
	Name    string
	Summary string  // one line for listings
	Params  []Param // the Options.Params it reads, typed and ranged
	New     func() Solver
	// CheckModel, for a solver that reads Options.Model, reads the model
	// file at path as the solver will (without holding weights it does not
	// need to look at), so that a command says once, before any run, that
	// a file is broken or a model of another kind; nil for a solver that
	// reads no model, for which the command refuses --model rather than
	// ignore it (ReadsModel).
	CheckModel func(path string) error
	// WithoutModel says, for a solver that reads Options.Model, what it
	// runs as when there is none, in words that follow "ran as", such as
	// "Schokoban"; "" for the others.
	WithoutModel string
	// Threads says the solver runs members side by side on
	// Options.Threads (a portfolio); the others run on one.
	Threads bool
	// SpareThreads says that more threads only make the solver sooner,
	// so soko solve and the web page give it the CPU slots the other
	// levels leave idle when no thread count is asked; not so for a
	// portfolio whose one-thread order is its point (portfolio's astar
	// first, for push-optimal solutions).
	SpareThreads bool
	// Iterations says the solver counts Stats.Iterations (MCTS iterations,
	// learning episodes), so that Budget.Iterations bounds it; the others
	// never reach an iteration limit.
	Iterations bool
}

var (
	regMu    sync.RWMutex
	registry = map[string]Entry{}
)

// Register adds a solver under e.Name; it panics on a duplicate name or an
// unsound parameter declaration (a range that is not finite, a default
// outside it), which are programming errors.
func Register(e Entry) {
	for i, p := range e.Params {
		p.validate(e.Name)
		for _, q := range e.Params[:i] {
			if q.Name == p.Name {
				panic("solver: " + e.Name + ": parameter " + p.Name + " declared twice")
			}
		}
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[e.Name]; dup {
		panic("solver: duplicate registration of " + e.Name)
	}
	registry[e.Name] = e
}

// Lookup returns the solver registered under name.
func Lookup(name string) (Entry, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	e, ok := registry[name]
	return e, ok
}

// UnknownError is the error of a solver name that names none: the name,
// the registered one it most likely stands for (suggest.Closest: ASTAR,
// gredy) and the registered names.
func UnknownError(name string) error {
	var names []string
	for _, e := range Entries() {
		names = append(names, e.Name)
	}
	return fmt.Errorf("unknown solver %q%s (known: %s)", name, suggest.DidYouMean(name, names, nil), strings.Join(names, ", "))
}

// ReadsModel says whether the solver reads Options.Model.
func (e Entry) ReadsModel() bool { return e.CheckModel != nil }

// ModelReaders returns the names of the registered solvers that read
// Options.Model, sorted.
func ModelReaders() []string {
	var names []string
	for _, e := range Entries() {
		if e.ReadsModel() {
			names = append(names, e.Name)
		}
	}
	return names
}

// IterationCounters returns the names of the registered solvers that count
// iterations (Entry.Iterations), sorted.
func IterationCounters() []string {
	var names []string
	for _, e := range Entries() {
		if e.Iterations {
			names = append(names, e.Name)
		}
	}
	return names
}

// Entries returns the registered solvers sorted by name.
func Entries() []Entry {
	regMu.RLock()
	defer regMu.RUnlock()
	es := make([]Entry, 0, len(registry))
	for _, e := range registry {
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	return es
}

// Run calls s.Solve and replays a returned solution with the independent
// verifier. A solution that does not solve the level is never returned: Run
// reports it as an error naming the first illegal step. Pushes is set from
// the replay.
func Run(ctx context.Context, s Solver, l *level.Level, opts Options) (Result, error) {
	start := time.Now()
	res, err := s.Solve(ctx, l, opts)
	if err != nil {
		return res, err
	}
	if res.Stats.Elapsed == 0 {
		res.Stats.Elapsed = time.Since(start)
	}
	if res.Status != Solved {
		res.Moves = nil
		return res, nil
	}
	rep := verify.Replay(l, res.Moves)
	if !rep.Solved {
		why := rep.Reason
		if why == "" {
			why = "the boxes are not all on goals at the end"
		}
		return Result{}, fmt.Errorf("%s: solver returned an invalid solution: %s", l.Name(), why)
	}
	res.Pushes = rep.Pushes
	return res, nil
}
