package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"soko/internal/suggest"
	"soko/levels"
	"soko/solver"

	_ "soko/distance" // registers the distance-model solvers
	_ "soko/fess"     // registers the FESS solver
	_ "soko/mcts"     // registers the MCTS solvers
	_ "soko/qlearn"   // registers the learning solvers
	_ "soko/search"   // registers the search solvers
)

// usageError is a mistake in the command line; it exits with status 2.
// cmd is the command whose help the message points to.
type usageError struct{ msg, cmd string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return usageError{msg: fmt.Sprintf(format, args...)} }

var (
	errInterrupted = errors.New("interrupted")
	errSilent      = errors.New("failure already reported")
)

// command is one sub-command: its usage line, its help and how to run it.
type command struct {
	name    string // "solve", "bench merge"
	args    string // what follows the name in the usage line
	summary string // one line for the overview
	doc     string // what soko help NAME prints after the usage line
	flags   func() *flag.FlagSet
	more    func(w io.Writer) // more help after doc, before the flags
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
	// longOnly leaves out the shortFlags: soko serve, a server's
	// configuration, is written out in full.
	longOnly bool
}

// withFlags completes c, a command with flags, with its flags and run:
// define makes the command's flag set with the configuration it fills
// (to which the shortFlags of its long flags are added),
// parse reads the command line with it (parseArgs, or parseLevels or
// parseResults where positional arguments are required), and run runs
// the command on that configuration and the positional arguments.
func withFlags[C any](c command, define func() (*flag.FlagSet, C),
	parse func(fs *flag.FlagSet, args []string) ([]string, error),
	run func(ctx context.Context, c C, args []string, stdin io.Reader, stdout, stderr io.Writer) error) command {
	defineAll := func() (*flag.FlagSet, C) {
		fs, conf := define()
		if !c.longOnly {
			addShortFlags(fs)
		}
		return fs, conf
	}
	c.flags = func() *flag.FlagSet { fs, _ := defineAll(); return fs }
	c.run = func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		fs, conf := defineAll()
		pos, err := parse(fs, args)
		if err != nil {
			return err
		}
		return run(ctx, conf, pos, stdin, stdout, stderr)
	}
	return c
}

// commands lists the sub-commands in the order of the overview. help is
// handled by run itself.
var commands = []command{
	withFlags(command{name: "solve", args: "[flags] LEVELS...", summary: "solve levels", doc: solveDoc},
		solveFlags, parseLevels, runSolve),
	withFlags(command{name: "verify", args: "[flags] LEVEL SOLUTION | FILE.sok", summary: "replay a solution (a file, - for stdin, or inline LURD), or every solution of a .sok file", doc: verifyDoc},
		verifyFlags, parseArgs, runVerify),
	withFlags(command{name: "optimize", args: "[flags] LEVEL SOLUTION | FILE.sok", summary: "shorten a solution, or those of a .sok file in place (vicinity search); --from FILE.jsonl for results", doc: optimizeDoc},
		optimizeFlags, parseArgs, runOptimize),
	withFlags(command{name: "list", args: "[LEVELS]", summary: "the embedded collections, or the levels of a collection or file",
		doc: "Without an argument, lists the embedded collections with their sizes;\nwith one (a collection, a file, - or any LEVELS spec), lists its levels:\naddress, size, boxes and title, or \"cannot load\" with the line and\nreason (exit status 1).\n"},
		noFlags("list"), parseArgs, runList),
	withFlags(command{name: "solvers", args: "[-v] [NAME...]", summary: "the registered solvers, the default first", doc: solversDoc},
		solversFlags, parseArgs, runSolvers),
	withFlags(command{name: "show", args: "LEVELS...", summary: "print levels as XSB",
		doc: "Prints each level as XSB; levels are separated by a blank line.\n"},
		noFlags("show"), parseLevels, runShow),
	withFlags(command{name: "analyze", args: "LEVELS...", summary: "dead squares, tunnels, goal rooms, search-space estimate",
		doc: "Prints each level with its static analysis: dead squares (x), tunnels,\ngoal rooms with their packing order, and the search-space estimate.\n"},
		noFlags("analyze"), parseLevels, runAnalyze),
	withFlags(command{name: "generate", args: "[flags]", summary: "Boxoban-style levels with verified solutions, deterministic per seed", doc: generateDoc},
		generateFlags, parseArgs, runGenerate),
	withFlags(command{name: "bench", args: "[flags] LEVELS...", summary: "run solvers x levels x budgets x seeds to JSONL", doc: benchDoc, more: printPresets},
		benchFlags, parseArgs, runBench),
	withFlags(command{name: "bench merge", args: "[flags] FILE.jsonl...", summary: "join the results of shards", doc: mergeDoc},
		mergeFlags, parseResults, runBenchMerge),
	withFlags(command{name: "report", args: "[flags] FILE.jsonl...", summary: "tables, plots and benchstat text from results", doc: reportDoc},
		reportFlags, parseResults, runReport),
	withFlags(command{name: "serve", args: "[flags]", summary: "the web page: play, solve live, replay", doc: serveDoc, longOnly: true},
		serveFlags, parseArgs, runServe),
	withFlags(command{name: "train", args: "[flags] LEVELS... --out FILE", summary: "train the alphazero network on search trees of levels", doc: trainDoc},
		trainFlags, parseLevels, runTrain),
	withFlags(command{name: "train-dist", args: "[flags] --out FILE", summary: "train the distance model of mcts-dist and greedy-dist on generated levels", doc: trainDistDoc},
		trainDistFlags, parseArgs, runTrainDist),
	withFlags(command{name: "train-puct", args: "[flags] --out FILE", summary: "train the puct solver's network by self-play on generated levels", doc: trainPuctDoc},
		trainPuctFlags, parseArgs, runTrainPuct),
	withFlags(command{name: "train-lts", args: "[flags] --out FILE", summary: "train the lts solver's context model by the bootstrap on generated levels", doc: trainLTSDoc},
		trainLTSFlags, parseArgs, runTrainLTS),
	withFlags(command{name: "train-guide", args: "[flags] [LEVELS...] --out FILE", summary: "train fess's learned guide on fess's own solutions of generated levels (and LEVELS)", doc: trainGuideDoc},
		trainGuideFlags, parseArgs, runTrainGuide),
	withFlags(command{name: "play", args: "[flags] LEVELS... | --replay FILE.sok", summary: "play levels in the terminal, or watch a solution or those of a .sok file", doc: playDoc},
		playFlags, parseArgs, runPlay),
	{name: "version", summary: "the module version and VCS revision of this build",
		doc: "Prints the module version, the VCS revision and time it was built from,\nand the Go version and platform. 'soko --version' does the same.\n",
		run: runVersion},
}

const helpDoc = "Without an argument, lists the commands; with one, prints that command's\nusage and flags. 'soko CMD -h' does the same.\n"

func lookupCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// commandNames are the names of the commands, help and version's
// spellings among them, for "did you mean".
func commandNames() []string {
	names := []string{"help"}
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

// printUsage writes the overview of all commands.
func printUsage(w io.Writer) {
	fmt.Fprint(w, "soko — a Sokoban solver\n\nusage:\n")
	line := func(synopsis, summary string) {
		if len(synopsis) > 40 { // the summary goes under it, in its column
			fmt.Fprintf(w, "  %s\n  %-40s %s\n", synopsis, "", summary)
			return
		}
		fmt.Fprintf(w, "  %-40s %s\n", synopsis, summary)
	}
	for _, c := range commands {
		line(strings.TrimSpace("soko "+c.name+" "+c.args), c.summary)
	}
	line("soko help [COMMAND]", "this text, or a command's usage and flags")
	fmt.Fprint(w, levelsDoc)
}

const levelsDoc = `
LEVELS are addressed as microban:12, xsokoban90:1-10, microban:1,5,9,
microban (a whole collection), path/to/file.xsb, path/to/file.xsb:3, or -
for standard input. Numbers are positions in the file: a "; 12" comment
above a board is its title, shown beside its address, never an address.
A spec that names no level (an unknown collection, a missing file, a
number out of range) is a usage error; a file that holds none is an error.

Flags may stand anywhere after the command. Exit status: 0 success, 1 failure,
2 usage error, 130 interrupted.
`

// printHelp writes the help of one command.
func printHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: %s\n", strings.TrimSpace("soko "+c.name+" "+c.args))
	if c.doc != "" {
		fmt.Fprint(w, "\n", c.doc)
	}
	if c.more != nil {
		c.more(w)
	}
	if c.flags != nil {
		fmt.Fprint(w, "\nflags:\n")
		printFlags(w, c.flags())
	}
}

// run is the whole program, minus the process: it reads args and stdin,
// writes to stdout and stderr, and returns an error for main to map to an
// exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stderr)
		return usagef("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	case "bench":
		if len(rest) > 0 && rest[0] == "merge" {
			name, rest = "bench merge", rest[1:]
		}
	}
	if name == "help" {
		return runHelp(rest, stdout)
	}
	c := lookupCommand(name)
	if c == nil && strings.HasPrefix(name, "-") {
		return usagef("%s before a command: the command comes first, its flags after it (soko COMMAND [flags] ...)", name)
	}
	if c == nil {
		return usagef("unknown command %q%s", name, suggest.DidYouMean(name, commandNames(), nil))
	}
	if wantsHelp(rest) {
		printHelp(stdout, c)
		return nil
	}
	err := c.run(ctx, rest, stdin, stdout, stderr)
	var u usageError
	var se *levels.SpecError
	switch {
	case errors.As(err, &u) || errors.As(err, &se):
		return usageError{msg: err.Error(), cmd: c.name}
	case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return errInterrupted // a wait for input that the signal ended
	}
	return err
}

func runHelp(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		printUsage(stdout)
		return nil
	}
	name := strings.Join(args, " ")
	if name == "help" {
		fmt.Fprintf(stdout, "usage: soko help [COMMAND]\n\n%s", helpDoc)
		return nil
	}
	c := lookupCommand(name)
	if c == nil {
		return usagef("no help for unknown command %q%s", name, suggest.DidYouMean(name, commandNames(), nil))
	}
	printHelp(stdout, c)
	return nil
}

// wantsHelp reports whether args ask for help: -h, --help (with a value
// too, as --help=1, which the flag package reads as asking for it) or help
// first.
func wantsHelp(args []string) bool {
	for i, a := range args {
		name, _, _ := strings.Cut(a, "=")
		if name == "-h" || name == "-help" || name == "--help" || name == "--h" || (i == 0 && a == "help") {
			return true
		}
		if a == "--" {
			return false
		}
	}
	return false
}

// runVersion prints the module version and VCS revision of the build.
func runVersion(_ context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) != 0 {
		return usagef("version: takes no arguments")
	}
	fmt.Fprintln(stdout, versionString())
	return nil
}

// versionString describes the build from its build information: module
// version, VCS revision and time, local changes, Go version and platform.
func versionString() string {
	version, revision, when, modified := "(unknown)", "", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	s := "soko " + version
	if revision == "" {
		s += ", revision unknown (built without VCS information)"
	} else {
		s += ", revision " + revision
		if when != "" {
			s += " of " + when
		}
		if modified {
			s += " with local changes"
		}
	}
	return s + ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// sizeValue is a flag holding a byte count, written like 512MiB, 4GiB, 2G or 1000000.
type sizeValue struct{ bytes *int64 }

func (v sizeValue) String() string {
	if v.bytes == nil || *v.bytes == 0 {
		return "0"
	}
	return formatBytes(*v.bytes)
}

func (v sizeValue) Set(s string) error {
	n, err := parseBytes(s)
	if err != nil {
		return err
	}
	*v.bytes = n
	return nil
}

// parseBytes reads a size: a decimal number (solver.IsDecimal, no sign)
// with an optional unit, KiB, MiB, GiB and TiB or K, M, G and T of 1024,
// KB, MB, GB and TB of 1000, B. A fraction of a byte is dropped, and a size
// above 0 that would so become 0 (none, on most flags) is refused.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	units := []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := solver.ParseDecimal(t)
	n := int64(f * float64(mult))
	switch {
	case errors.Is(err, solver.ErrNearZero) || err == nil && f > 0 && n == 0:
		return 0, errors.New("above 0 but below 1B, the smallest size it takes")
	case err != nil || strings.HasPrefix(t, "-") || f*float64(mult) > 1<<62:
		return 0, errors.New("want a size such as 512MiB, 4GiB or 2G")
	}
	return n, nil
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

// paramsValue is the repeatable --param NAME=VALUE flag.
type paramsValue map[string]string

func (p paramsValue) String() string {
	var parts []string
	for k, v := range p {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (p paramsValue) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" || value == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	if old, given := p[name]; given && old != value {
		return fmt.Errorf("parameter %s given twice, as %s and as %s: give it once", name, old, value)
	}
	p[name] = value
	return nil
}

// paramValue is a shorthand flag such as --w 200 for --param w=200.
type paramValue struct {
	params paramsValue
	name   string
}

func (p paramValue) String() string {
	if p.params == nil {
		return ""
	}
	return p.params[p.name]
}

func (p paramValue) Set(s string) error { return p.params.Set(p.name + "=" + s) }

// setMemoryLimit sets the Go runtime's soft memory limit for workers
// searches of perRun bytes each (0: no limit of their own).
//
// Each search stops when its tables (Stats.Bytes) reach seven eighths of
// its budget (solver.Budget.Tables); the process holds more: garbage the
// collector has not yet reclaimed (by default the heap grows to twice the
// live data before it runs), a hash table's old slots while it doubles,
// the parsed levels. A soft limit at the budgets themselves makes the
// collector run earlier instead, so that the Go runtime's memory stays
// within --memory and the process's peak RSS is --memory plus the binary
// and the runtime's own (about 13 MB).
func setMemoryLimit(workers int, perRun int64) {
	debug.SetMemoryLimit(memoryLimit(workers, perRun))
}

// memoryLimit is the soft memory limit setMemoryLimit sets.
func memoryLimit(workers int, perRun int64) int64 {
	limit := solver.PhysicalMemory() * 4 / 5
	if perRun > 0 {
		limit = min(limit, max(int64(workers)*perRun, memoryFloor))
	}
	return limit
}

// memoryFloor is the least soft limit: below it the collector would run
// all the time on the few MiB any soko process holds (the runtime, the
// levels parsed), for searches that stop at once anyway.
const memoryFloor = 16 << 20
