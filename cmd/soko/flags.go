package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"soko/internal/suggest"
	"soko/levels"
	"soko/optimize"
	"soko/solve"
	"soko/solver"
)

// This file holds what every command's flags share: the value types that
// check a flag's value with one message wherever it is used, the parser
// that lets flags stand anywhere on the line, and the help printer that
// writes them as --flag, as the README does.

// parseDuration reads a time limit: a Go duration such as 500ms, 10s or
// 2m, or 0 for none. A sign is refused (the numbers of flags have none),
// and so is a value above 0 that is less than a nanosecond, which Go reads
// as 0, that is no limit.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	switch {
	case err != nil || d < 0 || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
		return 0, errors.New("want a duration such as 500ms, 10s or 2m")
	case d == 0 && strings.ContainsAny(s, "123456789"):
		return 0, errors.New("above 0 but below 1ns, the shortest duration it takes")
	}
	return d, nil
}

// parseCount reads a count: a whole number of at least 0. What 0 means (no
// limit, none) or whether a command takes it is each flag's to say.
func parseCount(s string) (int64, error) {
	n, err := parseWhole(strings.TrimSpace(s))
	switch {
	case errors.Is(err, errOutOfRange) && !strings.HasPrefix(strings.TrimSpace(s), "-"):
		return 0, fmt.Errorf("too large: want a whole number from 0 to %d", int64(math.MaxInt64))
	case err != nil || n < 0:
		return 0, errors.New("want a whole number, at least 0")
	}
	return n, nil
}

// parseWhole reads a whole number written in decimal, as every number of
// soko's flags and parameters is (solver.IsDecimal): 1000, 1e3 and 10.0e2
// alike, read exactly rather than through a float. A value that is not
// whole or lies outside int64 is refused.
func parseWhole(s string) (int64, error) {
	if !solver.IsDecimal(s) {
		return 0, errNotDecimalSyntax
	}
	sign, s := "", strings.ToLower(s)
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		sign, s = "-", rest
	}
	mantissa, expText, _ := strings.Cut(s, "e")
	whole, frac, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return 0, nil
	}
	exp := 0
	if expText != "" {
		e, err := strconv.Atoi(expText)
		switch {
		case err != nil && strings.HasPrefix(expText, "-"):
			e = -1 << 30
		case err != nil:
			e = 1 << 30
		}
		exp = max(-1<<30, min(e, 1<<30))
	}
	significant := strings.TrimRight(digits, "0")
	exp += len(digits) - len(significant) - len(frac)
	switch {
	case exp < 0:
		return 0, errors.New("not whole")
	case len(significant)+exp > 19:
		return 0, errOutOfRange
	}
	n, err := strconv.ParseInt(sign+significant+strings.Repeat("0", exp), 10, 64)
	if err != nil {
		return 0, errOutOfRange
	}
	return n, nil
}

// parseNatural is parseWhole for numbers from 0 to the largest uint64.
func parseNatural(s string) (uint64, error) {
	if naturalSyntax.MatchString(s) {
		return strconv.ParseUint(s, 10, 64)
	}
	n, err := parseWhole(s)
	if err == nil && n < 0 {
		err = errBelowZero
	}
	return uint64(n), err
}

// parseSeeds reads seeds written as a list of numbers and ranges, such as
// 7, 1,2,3, 1-5 or 1-3,9.
func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for part := range strings.SplitSeq(s, ",") {
		a, b, isRange := strings.Cut(strings.TrimSpace(part), "-")
		lo, err1 := parseNatural(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = parseNatural(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || hi < lo || hi-lo >= 1e6 {
			return nil, errors.New("want seeds such as 7, 1,2,3 or 1-5 (whole numbers, ranges up to a million seeds)")
		}
		for x := lo; ; x++ {
			out = append(out, x)
			if x == hi {
				break
			}
		}
	}
	return out, nil
}

// shown is the text of a flag value kept at p, by format: "" for the zero
// value (p nil) that the flag package makes to tell a default from none.
func shown[T any](p *T, format func(T) string) string {
	if p == nil {
		return ""
	}
	return format(*p)
}

// store sets *p to the value read takes from s, or returns read's error
// and leaves *p as it was.
func store[T any](p *T, s string, read func(string) (T, error)) error {
	v, err := read(s)
	if err == nil {
		*p = v
	}
	return err
}

// durationValue is a time-limit flag (parseDuration).
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string     { return shown(v.d, time.Duration.String) }
func (v durationValue) Set(s string) error { return store(v.d, s, parseDuration) }

// countValue is a node or iteration limit flag (parseCount).
type countValue struct{ n *int64 }

func (v countValue) String() string     { return shown(v.n, formatInt64) }
func (v countValue) Set(s string) error { return store(v.n, s, parseCount) }

// workersValue is the -j flag: a whole number of at least 1.
type workersValue struct{ n *int }

func (v workersValue) String() string {
	if v.n == nil || *v.n == 0 { // not set: the flag's usage says what it comes to
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v workersValue) Set(s string) error {
	return store(v.n, s, func(s string) (int, error) {
		n, err := parseWhole(strings.TrimSpace(s))
		if errors.Is(err, errOutOfRange) && !strings.HasPrefix(strings.TrimSpace(s), "-") || err == nil && n > math.MaxInt {
			return math.MaxInt, nil // more than any machine has: capped as any large value is
		}
		if err != nil || n < 1 {
			return 0, errors.New("want a whole number, at least 1")
		}
		return int(n), nil
	})
}

// seedValue is soko solve's --seed: one seed, since solve runs each level
// once.
type seedValue struct{ seed *uint64 }

func (v seedValue) String() string { return shown(v.seed, formatUint64) }

func (v seedValue) Set(s string) error {
	return store(v.seed, s, func(s string) (uint64, error) {
		seeds, err := parseSeeds(s)
		if err != nil {
			return 0, errors.New("want a seed: a whole number such as 7 (soko bench runs lists and ranges of seeds)")
		}
		if len(seeds) != 1 {
			return 0, errors.New("soko solve runs one seed per level; soko bench runs lists and ranges of seeds")
		}
		return seeds[0], nil
	})
}

// formatInt64 and formatUint64 write a number in decimal.
func formatInt64(n int64) string   { return strconv.FormatInt(n, 10) }
func formatUint64(n uint64) string { return strconv.FormatUint(n, 10) }

// checkedDuration is a flag package duration flag that refuses negative
// values and unparsable ones with parseDuration's message.
type checkedDuration struct{ flag.Value }

func (v checkedDuration) Set(s string) error {
	if _, err := parseDuration(s); err != nil {
		return err
	}
	return v.Value.Set(s)
}

// checkedNumber is a flag package number flag that takes the numbers of
// solver.IsDecimal and only those: the flag package also reads 1_0, 0x10
// and +5, and its whole-number flags refuse 1e3. read checks the text and
// returns it as the flag package reads it.
type checkedNumber struct {
	flag.Value
	read func(string) (string, error)
	want string
}

func (v checkedNumber) Set(s string) error {
	text, err := v.read(s)
	switch {
	case errors.Is(err, errNotDecimalSyntax) || errors.Is(err, errBelowZero):
		return errors.New(v.want)
	case err != nil:
		return fmt.Errorf("%v; %s", err, v.want)
	}
	return v.Value.Set(text)
}

// readWhole, readNatural and readDecimal are checkedNumber's readers of
// whole numbers, whole numbers from 0 and decimals.
func readWhole(s string) (string, error) {
	n, err := parseWhole(s)
	return strconv.FormatInt(n, 10), err
}

func readNatural(s string) (string, error) {
	n, err := parseNatural(s)
	return strconv.FormatUint(n, 10), err
}

func readDecimal(s string) (string, error) {
	if !solver.IsDecimal(s) {
		return s, errNotDecimalSyntax
	}
	_, err := solver.ParseDecimal(s)
	return s, err
}

// The errors of numbers that the want of a flag says all about: a number
// not written in decimal, and one below 0 where none is taken.
var (
	errNotDecimalSyntax = errors.New("not a decimal number")
	errBelowZero        = errors.New("below 0")
	errOutOfRange       = errors.New("out of range")
)

var (
	naturalSyntax = regexp.MustCompile(`^[0-9]+$`)
	errNotWhole   = "want a whole number in decimal, such as 200 or 1e3"
	errNotNatural = "want a whole number from 0, in decimal, such as 200 or 1e3"
	errNotDecimal = "want a decimal number such as 8, 0.5 or 1e3"
)

// checkFlagTypes makes the duration and number flags of fs defined with
// the flag package's own Var functions answer like soko's value types, so
// that a bad time or number reads the same on every command, and its
// text flags refuse an empty value.
func checkFlagTypes(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) { f.Value = checkedType(f.Value) })
}

// checkedType is v checked as checkFlagTypes says; a typedValue is
// checked within, so that it keeps the text as typed.
func checkedType(v flag.Value) flag.Value {
	if t, ok := v.(typedValue); ok {
		t.Value = checkedType(t.Value)
		return t
	}
	g, ok := v.(flag.Getter)
	if !ok {
		return v
	}
	switch g.Get().(type) {
	case time.Duration:
		return checkedDuration{v}
	case int, int64:
		return checkedNumber{v, readWhole, errNotWhole}
	case uint, uint64:
		return checkedNumber{v, readNatural, errNotNatural}
	case float64:
		return checkedNumber{v, readDecimal, errNotDecimal}
	case string:
		return nonEmpty{v}
	}
	return v
}

// nonEmpty is a text flag (a file name, a solver list) that refuses an
// empty value: --out "$OUT" with OUT unset would otherwise read as no
// --out, and the file expected would never be written.
type nonEmpty struct{ flag.Value }

func (v nonEmpty) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty: give a value, or leave the flag out")
	}
	return v.Value.Set(s)
}

// typedValue is a flag value that keeps the text it was last set from, so
// that a check made after parsing (a range that depends on another flag)
// can echo what the user typed rather than the value reformatted.
type typedValue struct {
	flag.Value
	text *string
}

func (v typedValue) Set(s string) error {
	if err := v.Value.Set(s); err != nil {
		return err
	}
	*v.text = s
	return nil
}

// alias defines name as another name of the flag target, which must exist.
// Help prints the two on one line.
func alias(fs *flag.FlagSet, name, target string) {
	fs.Var(fs.Lookup(target).Value, name, aliasPrefix+target)
}

const aliasPrefix = "alias of --"

// shortFlags are the one-letter flags users expect, each the alias of the
// long flag it stands for on every command that has that flag
// (addShortFlags): -t --time, -o --out, -v --verbose. -j is a flag of its
// own, not an alias. Other one-letter flags (--w, --p, --c) are written
// with two dashes, as the parameters they set.
var shortFlags = []struct{ short, long string }{{"t", "time"}, {"o", "out"}, {"v", "verbose"}}

// addShortFlags defines the shortFlags of fs: each whose long flag fs has
// and whose letter it does not use already.
func addShortFlags(fs *flag.FlagSet) {
	for _, s := range shortFlags {
		if fs.Lookup(s.long) != nil && fs.Lookup(s.short) == nil {
			alias(fs, s.short, s.long)
		}
	}
}

// isShort reports whether name is written with one dash: -j and the
// shortFlags.
func isShort(name string) bool {
	if name == "j" {
		return true
	}
	for _, s := range shortFlags {
		if s.short == name {
			return true
		}
	}
	return false
}

// parseArgs parses flags that may stand before, between or after the
// positional arguments, and returns the positional ones. A bad flag is a
// usage error in the words of flagError.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	checkFlagTypes(fs)
	var pos []string
	for {
		// A level of standard input addressed by number (-:3) is not a
		// flag: the flags are parsed up to it.
		head, rest := args, []string(nil)
		if i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "-:") }); i >= 0 {
			head, rest = args[:i], args[i:]
		}
		if err := fs.Parse(head); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, usagef("see 'soko help %s'", fs.Name())
			}
			return nil, usagef("%s: %s", fs.Name(), flagError(fs, err, args))
		}
		args = append(fs.Args(), rest...)
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

// parseResults is parseArgs for a command whose positional arguments are
// results files, at least one.
func parseResults(fs *flag.FlagSet, args []string) ([]string, error) {
	files, err := parseArgs(fs, args)
	if err == nil && len(files) == 0 {
		err = usagef("%s: no results files given", fs.Name())
	}
	return files, err
}

// parseLevels is parseArgs for a command whose positional arguments are
// level specs, at least one.
func parseLevels(fs *flag.FlagSet, args []string) ([]string, error) {
	specs, err := parseArgs(fs, args)
	if err == nil && len(specs) == 0 {
		err = usagef("%s: no levels given%s", fs.Name(), levelsTakenAsValue(args))
	}
	return specs, err
}

// levelsTakenAsValue says, when the last of args looks like levels (a
// file, an embedded collection or a selection of one) and was read as
// the value of the flag before it, that it was: soko solve --algo
// level.xsb leaves no levels.
func levelsTakenAsValue(args []string) string {
	if len(args) < 2 {
		return ""
	}
	flagArg, last := args[len(args)-2], args[len(args)-1]
	if !strings.HasPrefix(flagArg, "-") || strings.Contains(flagArg, "=") {
		return ""
	}
	name, _, _ := strings.Cut(last, ":")
	if _, err := os.Stat(last); err != nil && !slices.Contains(levels.Names(), name) {
		return ""
	}
	return fmt.Sprintf(" (%s was read as the value of %s: give the flag its value before the levels)", last, flagArg)
}

var (
	badValue = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-(\S+): (.*)$`)
	noFlag   = regexp.MustCompile(`^flag provided but not defined: -(\S+)$`)
	noValue  = regexp.MustCompile(`^flag needs an argument: -(\S+)$`)
)

// flagError rewrites the flag package's messages ("invalid value "-1" for
// flag -time: ...") in the form soko uses everywhere: bad --time "-1": why.
// A flag is named as the user typed it in args (-t, --tim), and an
// unknown one gets the flag of fs it most likely stands for. The flag
// package's own reasons for numbers ("parse error", "value out of range")
// become what the flag of fs wants.
func flagError(fs *flag.FlagSet, err error, args []string) string {
	msg := err.Error()
	if m := badValue.FindStringSubmatch(msg); m != nil {
		why := m[3]
		if f := fs.Lookup(m[2]); f != nil && (why == "parse error" || why == "value out of range") {
			why = wantOf(f)
		}
		return fmt.Sprintf("bad %s %s: %s", typedFlag(args, m[2]), m[1], why)
	}
	if m := noFlag.FindStringSubmatch(msg); m != nil {
		return "unknown flag " + typedFlag(args, m[1]) + unknownFlagHint(fs, m[1])
	}
	if m := noValue.FindStringSubmatch(msg); m != nil {
		return typedFlag(args, m[1]) + " needs a value"
	}
	return msg
}

// typedFlag is flag name as written in args, the command line being
// parsed: -t, --t or ---t as typed, with any =VALUE left out; as help
// writes it (dashed) when args does not hold it.
func typedFlag(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		bare := strings.TrimLeft(a, "-")
		if n, _, _ := strings.Cut(bare, "="); n == name && len(bare) < len(a) {
			return a[:len(a)-len(bare)] + name
		}
	}
	return dashed(name)
}

// unknownFlagHint is what a message adds to an unknown flag name: the
// flag of fs it most likely stands for ("; did you mean --time?"), or,
// for a flag naming levels on a command that takes them as arguments,
// that they are arguments.
func unknownFlagHint(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if hint := suggest.DidYouMean(name, names, dashed); hint != "" {
		return hint
	}
	switch name {
	case "levels", "level", "collection":
		return fmt.Sprintf(" (levels are arguments: soko %s microban:1-3)", fs.Name())
	}
	return ""
}

// wantOf says what a flag of the flag package's number types takes.
func wantOf(f *flag.Flag) string {
	v := f.Value
	if t, ok := v.(typedValue); ok {
		v = t.Value
	}
	if c, ok := v.(checkedNumber); ok {
		v = c.Value
	}
	g, ok := v.(flag.Getter)
	if !ok {
		return "not a value this flag takes"
	}
	switch g.Get().(type) {
	case int, int64:
		return fmt.Sprintf("want a whole number from %d to %d", math.MinInt64, math.MaxInt64)
	case uint, uint64:
		return fmt.Sprintf("want a whole number from 0 to %d", uint64(math.MaxUint64))
	case float64:
		return "want a decimal number such as 8 or 0.5, at most 1.8e308"
	}
	return "not a value this flag takes"
}

// dashed writes a flag's name as help shows it: -j and the other
// shortFlags with one dash, --name for the others.
func dashed(name string) string {
	if isShort(name) {
		return "-" + name
	}
	return "--" + name
}

// printFlags writes the flags of fs, one to a line, in the form
//
//	--time D        time limit per level (default 10s)
//
// with a flag's aliases beside it and the value's name taken from the
// backquoted word of its usage, as flag.UnquoteUsage finds it.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	aliases := map[string][]string{}
	fs.VisitAll(func(f *flag.Flag) {
		if target, ok := strings.CutPrefix(f.Usage, aliasPrefix); ok {
			aliases[target] = append(aliases[target], dashed(f.Name))
		}
	})
	type row struct{ left, right string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Usage, aliasPrefix) {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		if generic, ok := typeNames[name]; ok {
			name = generic
		}
		left := strings.Join(append([]string{dashed(f.Name)}, aliases[f.Name]...), ", ")
		if name != "" {
			left += " " + name
		}
		if d := f.DefValue; d != "" && d != "0" && d != "0s" && d != "false" {
			usage += " (default " + d + ")"
		}
		rows = append(rows, row{left, usage})
		if len(left) <= 24 {
			width = max(width, len(left))
		}
	})
	for _, r := range rows {
		if len(r.left) > width {
			fmt.Fprintf(w, "  %s\n  %*s  %s\n", r.left, width, "", r.right)
			continue
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, r.right)
	}
}

// typeNames replaces the names flag.UnquoteUsage gives a value from its
// type, for flags whose usage has no backquoted name.
var typeNames = map[string]string{"duration": "D", "int": "N", "uint": "N", "float": "X", "string": "VALUE", "value": "VALUE"}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// runsAtOnce is how many runs share -j's CPU slots when each run asks for
// threads of them: a run with --threads N takes N slots, and one run is
// always let in, so -j 16 --threads 8 runs two levels at a time and -j 1
// --threads 8 one. Counting runs instead would give each of 16 runs 8
// threads on 16 cores: every run slowed eightfold, and a threads
// measurement that measures nothing.
func runsAtOnce(slots, threads int) int {
	return max(1, slots/max(threads, 1))
}

// maxWorkersPerCore bounds -j: workers beyond a few per core only split the
// memory and the cores further.
const maxWorkersPerCore = 16

// workerCeiling is the most workers -j gives: maxWorkersPerCore per core.
func workerCeiling() int { return maxWorkersPerCore * runtime.NumCPU() }

// capThreads returns --threads no higher than -j goes (workerCeiling),
// saying so on stderr when the user asked for more: beyond it threads only
// split the cores further, and the records would name threads that never
// ran.
func capThreads(stderr io.Writer, cmd string, asked int) int {
	ceiling := workerCeiling()
	if asked > ceiling {
		fmt.Fprintf(stderr, "%s: --threads %d: using %d, %d per core\n", cmd, asked, ceiling, maxWorkersPerCore)
		return ceiling
	}
	return asked
}

// inRange is a flag's value and whether it is in its range, which want
// says ("1 to 1000"), for checkRanges.
type inRange struct {
	flag  string
	value any
	ok    bool
	want  string
}

// checkRanges returns a usage error of cmd naming the first flag given
// out of its range, with its value and the range.
func checkRanges(cmd string, flags ...inRange) error {
	for _, f := range flags {
		if !f.ok {
			return usagef("%s: bad %s %q: want %s", cmd, f.flag, fmt.Sprint(f.value), f.want)
		}
	}
	return nil
}

// capWorkers returns how many of the asked workers are used for runs jobs:
// no more than the jobs, and no more than maxWorkersPerCore per core (said
// on stderr, since the user asked for more).
func capWorkers(stderr io.Writer, cmd string, asked, runs int) int {
	return capWorkersOf(stderr, cmd, "-j", "workers", asked, runs)
}

// capWorkersOf is capWorkers for a flag of another name, whose unit the
// note names (soko serve's --jobs, of job slots).
func capWorkersOf(stderr io.Writer, cmd, flag, unit string, asked, runs int) int {
	ceiling := workerCeiling()
	if asked > ceiling && runs > ceiling {
		fmt.Fprintf(stderr, "%s: %s %d: using %d %s, %d per core\n", cmd, flag, asked, ceiling, unit, maxWorkersPerCore)
	}
	return max(1, min(asked, runs, ceiling))
}

// policyFlags defines --optimize and --metric, the optimizer policy of
// soko solve and soko bench (solve.Run).
func policyFlags(fs *flag.FlagSet, p *solve.Policy) {
	fs.Var(onOffValue{&p.Off}, "optimize", "`on` or off: shorten each solution with the optimizer after the search, for --optimize-time (off: the solver's own solution)")
	metricFlag(fs, &p.Metric, "what the optimizer shortens first, `M`: pushes or moves (default pushes)")
}

// metricFlag defines --metric, what the optimizer shortens first, read by
// optimize.ParseMetric, for soko optimize and the policy of solve and bench.
func metricFlag(fs *flag.FlagSet, m *optimize.Metric, usage string) {
	fs.Func("metric", usage, func(s string) error {
		v, err := optimize.ParseMetric(s)
		if err != nil {
			return errors.New("want pushes, moves, pushes,moves or moves,pushes")
		}
		*m = v
		return nil
	})
}

// onOffValue is a flag that is on by default and reads on or off (true
// or false too). It takes its value as other flags do, --optimize off or
// --optimize=off, so it is not a boolean flag of package flag, which
// would not read --optimize off.
type onOffValue struct{ off *bool }

func (v onOffValue) String() string {
	if v.off != nil && *v.off {
		return "off"
	}
	return "on"
}

func (v onOffValue) Set(s string) error {
	switch s {
	case "on", "true":
		*v.off = false
	case "off", "false":
		*v.off = true
	default:
		return errors.New("want on or off")
	}
	return nil
}
