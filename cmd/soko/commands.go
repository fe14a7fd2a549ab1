package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"soko/analyze"
	"soko/level"
	"soko/levels"
	"soko/solver"
	"soko/verify"
)

// runVerify replays a solution: soko verify LEVEL SOLUTION, where SOLUTION
// is a file, - for standard input, or the LURD itself.
func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) != 2 {
		return usagef("verify: want LEVEL SOLUTION, got %d arguments", len(args))
	}
	lvls, err := levels.Resolve(args[0], stdin)
	if err != nil {
		return err
	}
	if len(lvls) != 1 {
		return usagef("verify: %q names %d levels; name exactly one", args[0], len(lvls))
	}
	text, err := readSolution(args[1], stdin)
	if err != nil {
		return err
	}
	rep, err := verify.Check(lvls[0], text)
	if err != nil {
		return fmt.Errorf("verify: solution: %w", err)
	}
	name := levelID(lvls[0])
	switch {
	case rep.Solved:
		fmt.Fprintf(stdout, "%s: solved in %d moves, %d pushes\n", name, rep.Moves, rep.Pushes)
		return nil
	case rep.FailStep > 0:
		fmt.Fprintf(stdout, "%s: not solved: %s\n", name, rep.Reason)
	default:
		fmt.Fprintf(stdout, "%s: not solved: after all %d moves (%d pushes) some boxes are off their goals\n", name, rep.Moves, rep.Pushes)
	}
	return errSilent
}

// readSolution reads a solution argument: - is standard input, an existing
// file is read, anything else is taken as the LURD text itself.
func readSolution(arg string, stdin io.Reader) (string, error) {
	if arg == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
		return string(b), err
	}
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		b, err := os.ReadFile(arg)
		return string(b), err
	}
	return arg, nil
}

func runList(args []string, stdout, stderr io.Writer) error {
	switch len(args) {
	case 0:
		for _, info := range levels.List() {
			fmt.Fprintf(stdout, "%-28s %5d levels  %s\n", info.Name, info.Levels, info.Description)
		}
		return nil
	case 1:
		c, err := levels.Collection(args[0])
		if err != nil {
			return err
		}
		for _, l := range c.Levels {
			fmt.Fprintf(stdout, "%s:%-4d %3dx%-3d %3d boxes  %s\n", args[0], l.Index, l.Width, l.Height, l.Boxes(), l.Title)
		}
		return nil
	}
	return usagef("list: want at most one collection name")
}

func runSolvers(args []string, stdout, stderr io.Writer) error {
	if len(args) != 0 {
		return usagef("solvers: takes no arguments")
	}
	for _, e := range solver.Entries() {
		fmt.Fprintf(stdout, "%-12s %s\n", e.Name, e.Summary)
		for _, p := range e.Params {
			fmt.Fprintf(stdout, "%-12s %s: %s\n", "", p, p.Doc)
		}
	}
	return nil
}

func runShow(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("show: no levels given")
	}
	lvls, err := levels.ResolveAll(args, stdin)
	if err != nil {
		return err
	}
	for i, l := range lvls {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, level.Format(l))
	}
	return nil
}

// runAnalyze prints each level with its static analysis (package analyze).
func runAnalyze(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("analyze: no levels given")
	}
	lvls, err := levels.ResolveAll(args, stdin)
	if err != nil {
		return err
	}
	for i, l := range lvls {
		text, err := analyze.Render(ctx, l)
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s\n%s", levelID(l), text)
	}
	return nil
}
