package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	_ "soko/mcts"   // registers the MCTS solvers
	_ "soko/search" // registers the search solvers
)

// usageError is a mistake in the command line; it exits with status 2.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

var (
	errInterrupted = errors.New("interrupted")
	errSilent      = errors.New("failure already reported")
)

const usage = `soko — a Sokoban solver

usage:
  soko solve [flags] LEVELS...      solve levels (see "soko help solve")
  soko verify LEVEL SOLUTION        replay a solution: a file, - for stdin, or inline LURD
  soko list [COLLECTION]            the embedded collections, or the levels of one
  soko solvers                      the registered solvers
  soko show LEVELS...               print levels as XSB
  soko analyze LEVELS...            dead squares, tunnels, goal rooms and the search-space estimate
  soko bench [flags] LEVELS...      run solvers x levels x budgets to JSONL (see "soko bench -h")
  soko bench merge FILE.jsonl...    join the results of shards
  soko report [flags] FILE.jsonl... tables, plots and benchstat text from results
  soko serve [--addr HOST:PORT]     the web page: play, solve live, replay (see "soko help serve")
  soko play [--replay LURD] LEVEL   play a level in the terminal, or watch a solution
  soko help [COMMAND]               this text, or a command's flags

LEVELS are addressed as microban:12, xsokoban90:1-10, microban:1,5,9,
microban (a whole collection), path/to/file.xsb, path/to/file.xsb:3, or -
for standard input.
`

// run is the whole program, minus the process: it reads args and stdin,
// writes to stdout and stderr, and returns an error for main to map to an
// exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "solve":
		return runSolve(ctx, rest, stdin, stdout, stderr)
	case "verify":
		return runVerify(rest, stdin, stdout, stderr)
	case "list":
		return runList(rest, stdout, stderr)
	case "solvers":
		return runSolvers(rest, stdout, stderr)
	case "show":
		return runShow(rest, stdin, stdout, stderr)
	case "analyze":
		return runAnalyze(ctx, rest, stdin, stdout, stderr)
	case "bench":
		return runBench(ctx, rest, stdin, stdout, stderr)
	case "report":
		return runReport(rest, stdout, stderr)
	case "serve":
		return runServe(ctx, rest, stdout, stderr)
	case "play":
		return runPlay(ctx, rest, stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return runHelp(rest, stdout)
	default:
		return usagef("unknown command %q", cmd)
	}
}

func runHelp(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	var fs *flag.FlagSet
	switch args[0] {
	case "solve":
		fs, _ = solveFlags()
	case "bench":
		fs, _ = benchFlags()
	case "report":
		fs, _ = reportFlags()
	case "serve":
		fs, _ = serveFlags()
	case "play":
		fs, _ = playFlags()
	case "verify", "list", "solvers", "show", "analyze":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		return usagef("no help for unknown command %q", args[0])
	}
	fs.SetOutput(stdout)
	synopsis := map[string]string{"serve": "[flags]", "play": "[flags] LEVEL"}[args[0]]
	if synopsis == "" {
		synopsis = "[flags] LEVELS..."
	}
	fmt.Fprintf(stdout, "usage: soko %s %s\n\nflags:\n", args[0], synopsis)
	fs.PrintDefaults()
	return nil
}

// parseArgs parses flags that may stand before, between or after the
// positional arguments, and returns the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, usagef("see 'soko help %s'", fs.Name())
			}
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
		if len(args) == 0 {
			return pos, nil
		}
	}
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
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("bad size %q (want e.g. 512MiB, 4GiB)", s)
	}
	return int64(f * float64(mult)), nil
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
