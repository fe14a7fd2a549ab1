package bench

import (
	"fmt"
	"strings"
	"time"

	"soko/solver"
)

// Preset is a benchmark that reproduces one of the seeds' experiments.
// Flags given on the command line override its fields.
type Preset struct {
	Name       string
	Doc        string   // what it reproduces
	Solvers    []string // solver specs (ParseSolverSpec)
	Levels     []string // level specs
	Times      []time.Duration
	Iterations []int64
	Compare    [2]string // the pair whose per-level push counts soko report compares by default
}

// Presets are the seeds' experiments.
var Presets = []Preset{
	{
		Name:       "schokoban",
		Doc:        "000 Tables 6.1/6.2 and Figs. 6.1/6.2: Vanillaban and Schokoban on CBC (60) and Microban III 1-100 at 25 ... 100,000 iterations; the report prints the thesis's logged numbers beside ours. Vanillaban runs with cycles=1, as the thesis's published code that produced those logs does",
		Solvers:    []string{"vanillaban:cycles=1", "schokoban"},
		Levels:     []string{"cbc60", "schokoban-microban100"},
		Iterations: []int64{25, 50, 100, 500, 1000, 2000, 5000, 10000, 100000},
		Compare:    [2]string{"schokoban", "vanillaban(cycles=1)"},
	},
	{
		Name:    "mcts-r",
		Doc:     "002 Fig. 4 and Table I: MCTS-R, MCTS, MCTS+N and MCTS+ND (and Schokoban for reference) on Microban (155) at 0.1, 1 and 10 s per level",
		Solvers: []string{"mcts-r", "mcts-nd", "mcts-n", "mcts", "schokoban"},
		Levels:  []string{"microban"},
		Times:   []time.Duration{100 * time.Millisecond, time.Second, 10 * time.Second},
		Compare: [2]string{"mcts-r", "mcts-nd"},
	},
	{
		Name:    "fama",
		Doc:     "004 §4 and Fig. 6: the best-first solver at 60 s per level on 100 Microban levels, with the solve-time histogram",
		Solvers: []string{"fama"},
		Levels:  []string{"microban:1-100"},
		Times:   []time.Duration{60 * time.Second},
	},
	{
		Name:    "qstar",
		Doc:     "001 §3: weighted A* (p=2, W=200) against Q* on Microban 1-20 at 10 and 60 s per level",
		Solvers: []string{"wastar:p=2:w=200", "qstar"},
		Levels:  []string{"microban:1-20"},
		Times:   []time.Duration{10 * time.Second, 60 * time.Second},
		Compare: [2]string{"qstar", "wastar(p=2,w=200)"},
	},
	{
		Name:    "strength",
		Doc:     "the default solver (fess) beside the push-optimal one (astar) on Microban and XSokoban at 1, 10 and 60 s per level",
		Solvers: []string{"fess", "astar"},
		Levels:  []string{"microban", "xsokoban90"},
		Times:   []time.Duration{time.Second, 10 * time.Second, 60 * time.Second},
	},
}

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, error) {
	var names []string
	for _, p := range Presets {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(names, ", "))
}

// Missing returns the preset's solvers that are not registered (not built
// yet).
func (p Preset) Missing() []string {
	var miss []string
	for _, s := range p.Solvers {
		name, _, _ := strings.Cut(s, ":")
		if _, ok := solver.Lookup(name); !ok {
			miss = append(miss, name)
		}
	}
	return miss
}
