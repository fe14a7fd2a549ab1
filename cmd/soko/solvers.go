package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"soko/solver"
)

// solverFamilies is the order soko solvers lists the solvers in: the
// default first, then by family as docs/solvers.md groups them. A
// registered solver missing here is listed last, under "other".
var solverFamilies = []struct {
	name    string
	solvers []string
}{
	{"", []string{defaultSolver}}, // no heading: it says "(default)"
	{"push-optimal", []string{"astar", "idastar", "bfs", "bfs-moves", "portfolio"}},
	{"best-first and depth-first", []string{"greedy", "bigreedy", "wastar", "wastar-push", "fama", "dfs"}},
	{"Monte Carlo tree search", []string{"vanillaban", "schokoban", "mcts-r", "mcts", "mcts-n", "mcts-nd"}},
	{"learning", []string{"alphazero", "mcts-dist", "puct", "greedy-dist", "lts", "qlearn", "qstar"}},
}

// defaultSolver is the solver soko solve and soko bench run without --algo.
const defaultSolver = "fess"

// listWidth is the width soko solvers wraps its lines to.
const listWidth = 80

const solversDoc = `Lists the registered solvers, the default first, then by family: each
with what it is and its parameters with their defaults (--param
NAME=VALUE on solve and bench). With NAME, or -v for all, each parameter
on its own lines: its default, kind and range, and what it does.
`

type solversConfig struct{ verbose bool }

func solversFlags() (*flag.FlagSet, *solversConfig) {
	c := &solversConfig{}
	fs := flag.NewFlagSet("solvers", flag.ContinueOnError)
	fs.BoolVar(&c.verbose, "verbose", false, "each parameter with its kind, range and what it does")
	return fs, c
}

// orderedSolvers returns the registered solvers in the order of
// solverFamilies, each with its family's name.
func orderedSolvers() (es []solver.Entry, families []string) {
	listed := map[string]bool{}
	for _, f := range solverFamilies {
		for _, name := range f.solvers {
			if e, ok := solver.Lookup(name); ok {
				es, families = append(es, e), append(families, f.name)
				listed[name] = true
			}
		}
	}
	for _, e := range solver.Entries() {
		if !listed[e.Name] {
			es, families = append(es, e), append(families, "other")
		}
	}
	return es, families
}

// runSolvers is soko solvers [-v] [NAME...].
func runSolvers(_ context.Context, c *solversConfig, names []string, _ io.Reader, stdout, _ io.Writer) error {
	es, families := orderedSolvers()
	if len(names) > 0 {
		var picked []solver.Entry
		for _, name := range names {
			i := slices.IndexFunc(es, func(e solver.Entry) bool { return e.Name == name })
			if i < 0 {
				return usagef("solvers: %v", solver.UnknownError(name))
			}
			picked = append(picked, es[i])
		}
		es, families, c.verbose = picked, nil, true
	}
	for i, e := range es {
		if families != nil && i > 0 && families[i] != families[i-1] {
			fmt.Fprintf(stdout, "\n%s:\n", families[i])
		}
		name := e.Name
		if name == defaultSolver {
			name += " (default)"
		}
		writeWrapped(stdout, fmt.Sprintf("  %-14s ", name), "", e.Summary)
		if c.verbose && e.Iterations {
			writeWrapped(stdout, "    ", "      ", "counts iterations: --iterations bounds it")
		}
		switch {
		case len(e.Params) == 0:
		case c.verbose:
			for _, p := range e.Params {
				writeWrapped(stdout, "    ", "      ", p.String()+": "+p.Doc)
			}
		default:
			var defaults []string
			for _, p := range e.Params {
				defaults = append(defaults, p.Name+"="+p.Default)
			}
			writeWrapped(stdout, "    parameters: ", "", strings.Join(defaults, " "))
		}
	}
	if !c.verbose {
		fmt.Fprintln(stdout, "\n'soko solvers NAME' or 'soko solvers -v' says what each parameter does.")
	}
	return nil
}

// writeWrapped writes text after lead, wrapped at blanks to listWidth
// columns, its further lines indented by indent ("": as far as lead). A
// word too long for the line breaks after its commas (a list's values);
// a piece longer than a line stands alone on one.
func writeWrapped(w io.Writer, lead, indent, text string) {
	if indent == "" {
		indent = strings.Repeat(" ", len(lead))
	}
	line := lead
	fresh := true // nothing on line yet
	for _, word := range strings.Fields(text) {
		for i, piece := range strings.SplitAfter(word, ",") {
			sep := " " // before a word's first piece; its others follow on
			if i > 0 {
				sep = ""
			}
			if !fresh && len(line)+len(sep)+len(piece) > listWidth {
				fmt.Fprintln(w, line)
				line, fresh = indent, true
			}
			if !fresh {
				line += sep
			}
			line += piece
			fresh = false
		}
	}
	fmt.Fprintln(w, line)
}
