package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
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
	"soko/sokfile"
	"soko/verify"
)

var verifyDoc = fmt.Sprintf(`Replays SOLUTION on LEVEL with the independent verifier (package verify)
and says whether it solves the level, or which step is illegal. SOLUTION is
- for standard input, the name of an existing file, or else the LURD itself:
an argument made only of the letters udlrUDLR, repeat counts and blanks,
with at least one letter. Any other argument is a file name, and a missing
file is an error naming it.
A solution has at most %d steps (a file at most %d MiB). Exit status 1
when it does not solve the level.

Letter case is checked: a push is written in upper case (UDLR), a move in
lower case (udlr). A solution with a step in the wrong case is refused,
naming the step, unless --lenient-case, which reads each step by what it
does, says so and prints the solution as it should be written.

With one argument, FILE.sok, every solution of the .sok file (soko solve
--out writes one) is replayed on its level, each said with its line; exit
status 1 when one does not solve its level, is in the wrong case, cannot
be read (its line is named) or its level cannot be loaded.
`, level.MaxSolutionSteps, level.MaxSolutionText>>20)

// verifyFlags are soko verify's flags.
func verifyFlags() (*flag.FlagSet, *bool) {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	lenient := new(bool)
	lenientCaseFlag(fs, lenient)
	return fs, lenient
}

// lenientCaseFlag defines --lenient-case, by which soko verify, optimize
// and play --replay take a solution whose letter case does not say what
// its steps do (caseError).
func lenientCaseFlag(fs *flag.FlagSet, lenient *bool) {
	fs.BoolVar(lenient, "lenient-case", false, "accept steps in the wrong letter case, reading each by what it does, and say so")
}

// caseError is why a replayed solution with a step in the wrong letter
// case (rep.CaseStep > 0) is refused without --lenient-case: the first
// such step, and the rule.
func caseError(rep verify.Report) string {
	return rep.Case + " (a push is written in upper case, a move in lower case; --lenient-case reads each step by what it does)"
}

// caseNote is what --lenient-case says of a solution it took although a
// step is in the wrong letter case (rep.CaseStep > 0).
func caseNote(rep verify.Report) string {
	return fmt.Sprintf("--lenient-case: the letter case of %s normalised; the first: %s", english.Count(rep.Miscased, "step", "steps"), rep.Case)
}

// checkCase holds a solution to soko verify's rule on letter case before
// soko optimize or play --replay uses it: a step whose case does not say
// what it does (replayed on l) is an error naming it, unless lenient; then
// note says what was normalised. Both are empty when the case is right.
func checkCase(l *level.Level, ms []level.Move, lenient bool) (note string, err error) {
	rep := verify.Replay(l, ms)
	switch {
	case rep.CaseStep == 0:
		return "", nil
	case !lenient:
		return "", errors.New(caseError(rep))
	}
	return caseNote(rep), nil
}

// runVerify replays a solution: soko verify LEVEL SOLUTION, or those of a
// .sok file: soko verify FILE.sok.
func runVerify(ctx context.Context, lenient *bool, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch len(args) {
	case 1:
		return verifySok(ctx, args[0], *lenient, stdout)
	case 2:
	default:
		return usagef("verify: want LEVEL SOLUTION or FILE.sok, got %s", english.Count(len(args), "argument", "arguments"))
	}
	l, text, from, err := levelAndSolution(ctx, "verify", args, stdin)
	if err != nil {
		return err
	}
	ms, err := level.ParseLURD(text)
	if err != nil {
		return fmt.Errorf("verify: %s: %w", from, err)
	}
	rep := verify.Replay(l, ms)
	fmt.Fprintf(stdout, "%s: %s\n", lineName(levelID(l), l.Label()), verdict(rep, *lenient))
	if rep.CaseStep > 0 && *lenient {
		fmt.Fprintf(stderr, "soko: verify: --lenient-case: the solution as it should be written:\n%s\n", level.FormatLURD(verify.Recase(l, ms)))
	}
	if !accepted(rep, *lenient) {
		return errSilent
	}
	return nil
}

// accepted reports whether soko verify accepts a replayed solution: it
// solves its level, and with every step in the right letter case unless
// lenient.
func accepted(rep verify.Report, lenient bool) bool {
	return rep.Solved && (rep.CaseStep == 0 || lenient)
}

// verdict is soko verify's word on a replayed solution: solved and its
// counts, or why not. A step in the wrong letter case is refused before
// anything else, unless lenient, and then the verdict says it was
// normalised.
func verdict(rep verify.Report, lenient bool) string {
	moves, pushes := english.Count(rep.Moves, "move", "moves"), english.Count(rep.Pushes, "push", "pushes")
	var v string
	switch {
	case rep.CaseStep > 0 && !lenient:
		v = "refused: " + caseError(rep)
		if !rep.Solved {
			v += "; nor does it solve the level"
		}
		return v
	case rep.Solved:
		v = fmt.Sprintf("solved in %s, %s", moves, pushes)
	case rep.FailStep > 0:
		v = "not solved: " + rep.Reason
	default:
		v = fmt.Sprintf("not solved: after all %s (%s) some boxes are off their goals", moves, pushes)
	}
	if rep.CaseStep > 0 {
		v += " (" + caseNote(rep) + ")"
	}
	return v
}

// levelAndSolution reads cmd's arguments LEVEL SOLUTION: the one level
// args[0] names, and the solution text args[1] gives and where it came
// from (readSolution).
func levelAndSolution(ctx context.Context, cmd string, args []string, stdin io.Reader) (l *level.Level, text, from string, err error) {
	if args[1] == "-" && (args[0] == "-" || strings.HasPrefix(args[0], "-:")) {
		return nil, "", "", usagef("%s: standard input can give the level or the solution, not both", cmd)
	}
	lvls, err := levels.ResolveAll(ctx, args[:1], stdin)
	if err != nil {
		return nil, "", "", err
	}
	if len(lvls) != 1 {
		return nil, "", "", usagef("%s: %q names %d levels; name exactly one", cmd, args[0], len(lvls))
	}
	if text, from, err = readSolution(ctx, args[1], stdin); err != nil {
		return nil, "", "", fmt.Errorf("%s: %w", cmd, err)
	}
	return lvls[0], text, from, nil
}

// readSolution reads a solution argument (see verifyDoc): - is standard
// input, an existing file is read, an argument made only of LURD letters,
// digits and blanks is the LURD itself, and anything else names a file that
// does not exist. Input longer than level.MaxSolutionText is refused
// without reading it all. from names where the text came from, for the
// errors of its parse: "the solution on standard input", "solution file
// F", or "solution" for inline LURD.
func readSolution(ctx context.Context, arg string, stdin io.Reader) (text, from string, err error) {
	if arg == "-" {
		if stdin == nil {
			return "", "", errors.New("no standard input to read the solution from")
		}
		text, err = readCapped(ctxio.Reader(ctx, stdin), "standard input")
		return text, "the solution on standard input", err
	}
	st, err := os.Stat(arg)
	switch {
	case err == nil && st.IsDir():
		return "", "", fmt.Errorf("solution %s is a directory", arg)
	case err == nil:
		from = "solution file " + arg
		if st.Size() > level.MaxSolutionText {
			return "", "", fmt.Errorf("%s: %d bytes, more than the %d a solution may take (at most %d steps)",
				from, st.Size(), level.MaxSolutionText, level.MaxSolutionSteps)
		}
		f, err := ctxio.Open(ctx, arg)
		if err != nil {
			return "", "", err
		}
		defer f.Close()
		text, err = readCapped(f, from)
		return text, from, err
	case isLURD(arg):
		return arg, "solution", nil
	case errors.Is(err, fs.ErrNotExist):
		return "", "", usagef("solution file %s does not exist (inline LURD is made of the letters udlrUDLR, with repeat counts and blanks)", arg)
	}
	return "", "", err
}

// readCapped reads r up to level.MaxSolutionText bytes and fails if there
// is more. Its text is read as level files are (level.Text): a UTF-8 byte
// order mark is dropped and UTF-16 with one is decoded.
func readCapped(r io.Reader, what string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, level.MaxSolutionText+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", what, err)
	}
	if len(b) > level.MaxSolutionText {
		return "", fmt.Errorf("%s: more than the %d bytes a solution may take (at most %d steps)",
			what, level.MaxSolutionText, level.MaxSolutionSteps)
	}
	return level.Text(b, what)
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
func runList(ctx context.Context, _ struct{}, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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

// noFlags is the flag set of a command without flags of its own, so that
// a flag given to it is refused as one (soko show --levels microban names
// no collection "--levels") and help is asked for as on the others.
func noFlags(name string) func() (*flag.FlagSet, struct{}) {
	return func() (*flag.FlagSet, struct{}) { return flag.NewFlagSet(name, flag.ContinueOnError), struct{}{} }
}

// runShow prints each level as XSB.
func runShow(ctx context.Context, _ struct{}, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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
func runAnalyze(ctx context.Context, _ struct{}, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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
		fmt.Fprintf(stdout, "%s\n%s", level.Printable(levelID(l)), text)
	}
	return nil
}

// verifySok replays every solution of a .sok file, and every snapshot (a
// game in progress, which must replay but need not solve): soko verify
// FILE.sok.
// A solution section whose moves cannot be read counts as a solution that
// fails, named by its file, level and line; a step in the wrong letter
// case fails unless lenient, as for one solution.
func verifySok(ctx context.Context, path string, lenient bool, stdout io.Writer) error {
	f, err := readSok(ctx, "verify", path)
	if err != nil {
		return err
	}
	total, bad, snaps, badSnaps := 0, 0, 0, 0
	for _, e := range f.Entries {
		le := levels.Entry{Level: e.Level, Unloadable: e.Unloadable}
		for _, s := range e.Snapshots {
			snaps++
			moves, err := e.CheckSnapshot(s) // its error names file, level and line
			if err != nil {
				badSnaps++
				fmt.Fprintln(stdout, err)
				continue
			}
			fmt.Fprintf(stdout, "%s: snapshot at line %d: a game in progress, resumes after %s\n", lineName(le.ID(), le.Label()), s.Line, english.Count(len(moves), "move", "moves"))
		}
		for _, u := range e.Unreadable {
			if e.IsSnapshot(u) {
				snaps++
				badSnaps++
				fmt.Fprintf(stdout, "%s: a snapshot cannot be read: %v\n", lineName(le.ID(), le.Label()), u)
				continue
			}
			total++
			bad++
			fmt.Fprintf(stdout, "%s: a solution cannot be read: %v\n", lineName(le.ID(), le.Label()), u)
		}
		for _, s := range e.Solutions {
			total++
			where := fmt.Sprintf("%s: solution at line %d", lineName(le.ID(), le.Label()), s.Line)
			if e.Unloadable != nil {
				bad++
				fmt.Fprintf(stdout, "%s: level cannot be loaded: %v\n", where, e.Unloadable.Err)
				continue
			}
			rep, err := verify.Check(e.Level, s.LURD)
			if err != nil {
				bad++
				fmt.Fprintf(stdout, "%s: %v\n", where, err)
				continue
			}
			if !accepted(rep, lenient) {
				bad++
			}
			fmt.Fprintf(stdout, "%s: %s\n", where, verdict(rep, lenient))
		}
	}
	if total == 0 && snaps > 0 {
		fmt.Fprintf(stdout, "%s: no solutions; %d of %s resume on their levels\n", path, snaps-badSnaps, english.Count(snaps, "snapshot", "snapshots"))
		if badSnaps > 0 {
			return errSilent
		}
		return nil
	}
	if total == 0 {
		atStart := 0
		for _, e := range f.Entries {
			if e.Level != nil && len(e.Solutions) == 0 && solvedAtStart(e.Level) {
				atStart++
			}
		}
		if atStart == 0 || atStart < len(f.Entries) {
			return fmt.Errorf("verify: %s has no solutions%s", path, unloadableNote(f))
		}
		// soko solve --out writes no section for a level solved at its start
		fmt.Fprintf(stdout, "%s: no solutions to replay; its %s solved at the start, needing none\n", path, english.Count(atStart, "level is", "levels are"))
		return nil
	}
	fmt.Fprintf(stdout, "%s: %d of %s solve their levels\n", path, total-bad, english.Count(total, "solution", "solutions"))
	if snaps > 0 {
		fmt.Fprintf(stdout, "%s: %d of %s resume on their levels\n", path, snaps-badSnaps, english.Count(snaps, "snapshot", "snapshots"))
	}
	if bad > 0 || badSnaps > 0 {
		return errSilent
	}
	return nil
}

// unloadableNote says, after a message that a .sok file gave nothing to
// do, why its levels that cannot be loaded cannot: the first one's error,
// and how many more there are; "" when every level loads.
func unloadableNote(f *sokfile.File) string {
	var first error
	n := 0
	for _, e := range f.Entries {
		if e.Unloadable != nil {
			if n++; first == nil {
				first = e.Unloadable.Err
			}
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("; a level cannot be loaded: %v", first)
	}
	return fmt.Sprintf("; %d levels cannot be loaded, the first: %v", n, first)
}
