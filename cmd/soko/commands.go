package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"soko/analyze"
	"soko/internal/ctxio"
	"soko/internal/english"
	"soko/level"
	"soko/levels"
	"soko/solver"
	"soko/verify"
)

var verifyDoc = fmt.Sprintf(`Replays SOLUTION on LEVEL with the independent verifier (package verify)
and says whether it solves the level, or which step is illegal. SOLUTION is
- for standard input, the name of an existing file, or else the LURD itself:
an argument made only of the letters udlrUDLR, repeat counts and blanks. Any
other argument is a file name, and a missing file is an error naming it.
A solution has at most %d steps (a file at most %d MiB). Exit status 1
when it does not solve the level.

With one argument, FILE.sok, every solution of the .sok file (soko solve
--out writes one) is replayed on its level, each said with its line; exit
status 1 when one does not solve its level or its level cannot be loaded.
`, level.MaxSolutionSteps, level.MaxSolutionText>>20)

// runVerify replays a solution: soko verify LEVEL SOLUTION, or those of a
// .sok file: soko verify FILE.sok.
func runVerify(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch len(args) {
	case 1:
		return verifySok(ctx, args[0], stdout)
	case 2:
	default:
		return usagef("verify: want LEVEL SOLUTION or FILE.sok, got %s", english.Count(len(args), "argument", "arguments"))
	}
	lvls, err := levels.ResolveAll(ctx, args[:1], stdin)
	if err != nil {
		return err
	}
	if len(lvls) != 1 {
		return usagef("verify: %q names %d levels; name exactly one", args[0], len(lvls))
	}
	text, err := readSolution(ctx, args[1], stdin)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	rep, err := verify.Check(lvls[0], text)
	if err != nil {
		return fmt.Errorf("verify: solution: %w", err)
	}
	name := levelID(lvls[0])
	moves, pushes := english.Count(rep.Moves, "move", "moves"), english.Count(rep.Pushes, "push", "pushes")
	switch {
	case rep.Solved:
		fmt.Fprintf(stdout, "%s: solved in %s, %s\n", name, moves, pushes)
		return nil
	case rep.FailStep > 0:
		fmt.Fprintf(stdout, "%s: not solved: %s\n", name, rep.Reason)
	default:
		fmt.Fprintf(stdout, "%s: not solved: after all %s (%s) some boxes are off their goals\n", name, moves, pushes)
	}
	return errSilent
}

// readSolution reads a solution argument (see verifyDoc): - is standard
// input, an existing file is read, an argument made only of LURD letters,
// digits and blanks is the LURD itself, and anything else names a file that
// does not exist. Input longer than level.MaxSolutionText is refused
// without reading it all.
func readSolution(ctx context.Context, arg string, stdin io.Reader) (string, error) {
	if arg == "-" {
		if stdin == nil {
			return "", errors.New("no standard input to read the solution from")
		}
		return readCapped(ctxio.Reader(ctx, stdin), "standard input")
	}
	st, err := os.Stat(arg)
	switch {
	case err == nil && st.IsDir():
		return "", fmt.Errorf("solution %s is a directory", arg)
	case err == nil:
		if st.Size() > level.MaxSolutionText {
			return "", fmt.Errorf("solution file %s: %d bytes, more than the %d a solution may take (at most %d steps)",
				arg, st.Size(), level.MaxSolutionText, level.MaxSolutionSteps)
		}
		f, err := ctxio.Open(ctx, arg)
		if err != nil {
			return "", err
		}
		defer f.Close()
		return readCapped(f, "solution file "+arg)
	case isLURD(arg):
		return arg, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", usagef("solution file %s does not exist (inline LURD is made only of udlrUDLR, repeat counts and blanks)", arg)
	}
	return "", err
}

// readCapped reads r up to level.MaxSolutionText bytes and fails if there
// is more.
func readCapped(r io.Reader, what string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, level.MaxSolutionText+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", what, err)
	}
	if len(b) > level.MaxSolutionText {
		return "", fmt.Errorf("%s: more than the %d bytes a solution may take (at most %d steps)",
			what, level.MaxSolutionText, level.MaxSolutionSteps)
	}
	return string(b), nil
}

// isLURD reports whether s is made only of LURD letters, repeat counts and
// blanks, and holds at least one letter.
func isLURD(s string) bool {
	letter := false
	for _, c := range []byte(s) {
		switch {
		case strings.IndexByte("udlrUDLR", c) >= 0:
			letter = true
		case c >= '0' && c <= '9', c == ' ', c == '\t', c == '\n', c == '\r':
		default:
			return false
		}
	}
	return letter
}

// runList lists the embedded collections, or the levels of a collection,
// a file or standard input.
func runList(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch len(args) {
	case 0:
		for _, info := range levels.List() {
			fmt.Fprintf(stdout, "%-28s %5d levels  %s\n", info.Name, info.Levels, info.Description)
		}
		return nil
	case 1:
		return listStreamed(ctx, args[0], stdin, stdout)
	}
	return usagef("list: want at most one collection, file or level spec")
}

// listStreamed lists the levels of spec. A whole file or standard input
// is read twice, level by level, the first time for the width of their
// names, so that a file of millions of small levels is listed without
// holding them (levels.Stream).
func listStreamed(ctx context.Context, spec string, stdin io.Reader, stdout io.Writer) error {
	st, ok, err := levels.OpenStream(ctx, spec, stdin)
	if err != nil {
		return err
	}
	if !ok {
		es, err := levels.ResolveEntries(ctx, []string{spec}, stdin)
		if err != nil {
			return err
		}
		if !listEntries(stdout, es) {
			return errSilent // marked in the list
		}
		return nil
	}
	width := 0
	err = st.Each(ctx, func(e levels.Entry) error {
		width = max(width, len(e.ID()))
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	loaded := true
	w := bufio.NewWriter(stdout)
	err = st.Each(ctx, func(e levels.Entry) error {
		loaded = listEntry(w, width, e) && loaded
		return ctx.Err()
	})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	switch {
	case err != nil:
		return err
	case !loaded:
		return errSilent // marked in the list
	}
	return nil
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

func runShow(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("show: no levels given")
	}
	es, err := levels.ResolveEntries(ctx, args, stdin)
	if err != nil {
		return err
	}
	shown := 0
	for _, e := range es {
		if e.Unloadable != nil {
			fmt.Fprintf(stderr, "soko: show: %v\n", e.Unloadable.Err)
			continue
		}
		if shown > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, level.Format(e.Level))
		shown++
	}
	if shown < len(es) {
		return errSilent // each said on stderr; the other levels were shown
	}
	return nil
}

// runAnalyze prints each level with its static analysis (package analyze).
func runAnalyze(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("analyze: no levels given")
	}
	lvls, err := levels.ResolveAll(ctx, args, stdin)
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
