package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"strings"
	"time"

	"soko/bench"
	"soko/internal/ctxio"
	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/internal/outfile"
	"soko/internal/progress"
	"soko/level"
	"soko/levels"
	"soko/optimize"
	"soko/solve"
)

const optimizeDoc = `Shortens a solution: reads it as its pushes with shortest walks between
them, cuts cycles, re-routes each run of pushes of one box, then runs
vicinity searches (up to as many boxes as --radii has radii may stand off
the solution's squares, each among its radius's nearest squares) over
stretches of the solution that grow to the whole of it, until a turn over
the whole solution brings no gain. The result is replayed by the verifier
and is never longer in --metric than the given solution. SOLUTION is read
as by 'soko verify', whose rule on letter case holds: a step in the wrong
case is an error naming it, unless --lenient-case. With --from FILE.jsonl every solved record of a 'soko
bench' or 'soko solve --json' results file is optimized instead, with
--time per level, and --compare sets the totals beside other solvers'.
When stderr is a terminal a progress line shows the current length; Ctrl-C
ends the search and prints the best solution found so far.

With FILE.sok (as soko solve --out writes it) the shortest solution in
--metric of each level is optimized, with --time per level, and the result
is added to the file in place beside the old ones (--replace drops those it
is at least as good as in pushes and moves).
`

type optimizeConfig struct {
	metric  optimize.Metric
	time    time.Duration
	radii   []int
	memory  int64
	from    string
	out     string
	compare compareFiles
	json    bool
	noLURD  bool
	replace bool // FILE.sok: the optimized solution replaces those it is as good as
	lenient bool // --lenient-case: take a solution in the wrong letter case, and say so
}

func optimizeFlags() (*flag.FlagSet, *optimizeConfig) {
	c := &optimizeConfig{time: time.Minute, radii: optimize.DefaultRadii, memory: optimize.DefaultMemory}
	fs := flag.NewFlagSet("optimize", flag.ContinueOnError)
	fs.Func("metric", "what to shorten first, `M`: pushes, moves, pushes,moves or moves,pushes (the other breaks ties; default pushes)", func(s string) error {
		m, err := optimize.ParseMetric(s)
		if err != nil {
			return errors.New("want pushes, moves, pushes,moves or moves,pushes")
		}
		c.metric = m
		return nil
	})
	fs.Var(durationValue{&c.time}, "time", "time limit `D` per solution, e.g. 10s, 2m (0: none)")
	fs.Var(radiiValue{&c.radii}, "radii", "vicinity radii `LIST`, one per box that may stand off the solution (empty: no vicinity search)")
	fs.Var(sizeValue{&c.memory}, "memory", "memory `SIZE` one vicinity search may hold before its stretch is split")
	fs.StringVar(&c.from, "from", "", "optimize every solved record of results `FILE.jsonl` (or .jsonl.gz; read as it goes, at most 64 MiB)")
	fs.StringVar(&c.out, "out", "", "also write each result as a JSON line to `FILE`, appended; run again, levels already in it are skipped")
	fs.Var(&c.compare, "compare", "with --from, set the totals beside those of the solvers in `FILE` (JSONL results, or a table of NAME_status, NAME_pushes, NAME_moves columns); repeatable")
	fs.BoolVar(&c.json, "json", false, "print one JSON object per solution (JSONL); the summary goes to stderr")
	fs.BoolVar(&c.noLURD, "no-solution", false, "do not print the solutions")
	fs.BoolVar(&c.replace, "replace", false, "with FILE.sok, drop the solutions the optimized one is at least as good as in pushes and moves (default: keep them beside it)")
	lenientCaseFlag(fs, &c.lenient)
	return fs, c
}

// radiiValue is the --radii flag: vicinity sizes such as 20,10.
type radiiValue struct{ r *[]int }

func (v radiiValue) String() string {
	if v.r == nil {
		return ""
	}
	var parts []string
	for _, r := range *v.r {
		parts = append(parts, strconv.Itoa(r))
	}
	return strings.Join(parts, ",")
}

func (v radiiValue) Set(s string) error {
	radii := []int{}
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" && !strings.Contains(s, ",") {
			continue
		}
		n, err := parseWhole(strings.TrimSpace(part))
		if err != nil || n < 1 || n > optimize.MaxRadius {
			return fmt.Errorf("want squares from 1 to %d, comma-separated, at most %d, such as 20,10", optimize.MaxRadius, optimize.MaxRadii)
		}
		radii = append(radii, int(n))
	}
	if len(radii) > optimize.MaxRadii {
		return fmt.Errorf("want at most %d radii, such as 20,10", optimize.MaxRadii)
	}
	*v.r = radii
	return nil
}

// optimized is one solution's result, as printed by --json.
type optimized struct {
	Level    string         `json:"level"`
	Title    string         `json:"title,omitempty"`
	Solver   string         `json:"solver,omitempty"` // the solver of a --from record
	Metric   string         `json:"metric"`
	Before   optimize.Score `json:"before"`
	After    optimize.Score `json:"after"`
	Complete bool           `json:"complete"`
	// MemoryLimited: a stretch was left unsearched because its search
	// outgrew --memory.
	MemoryLimited bool    `json:"memory_limited,omitempty"`
	Seconds       float64 `json:"time_s"`
	Searches      int     `json:"searches"`
	Expanded      int64   `json:"expanded"`
	Solution      string  `json:"solution,omitempty"`
	Error         string  `json:"error,omitempty"`
	// caseNote is what --lenient-case says of a solution it took in the
	// wrong letter case; caseRefused, that such a solution was refused
	// without it (not written to --out, so that a run with it does it).
	caseNote    string
	caseRefused bool
}

func runOptimize(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, c := optimizeFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case c.from == "" && len(pos) == 1:
		return optimizeSok(ctx, pos[0], c, stdout, stderr)
	case c.from != "" && len(pos) > 0:
		return usagef("optimize: --from takes no LEVEL SOLUTION")
	case c.from == "" && len(c.compare) > 0:
		return usagef("optimize: --compare needs --from")
	case c.from == "" && len(pos) != 2:
		return usagef("optimize: want LEVEL SOLUTION or FILE.sok, got %s", english.Count(len(pos), "argument", "arguments"))
	}
	if err := checkOut("optimize", "--out", c.out); err != nil {
		return err
	}
	if err := notGzip("optimize", "--out", c.out); err != nil {
		return err
	}
	inputs := append([]string{c.from}, c.compare...)
	if len(pos) == 2 {
		inputs = append(inputs, pos[1]) // the solution, when a file
	}
	if err := notAnInput("optimize", stdin, pos[:min(len(pos), 1)], inputs, output{"--out", c.out}); err != nil {
		return err
	}
	others := lengthsBy{}
	for _, path := range c.compare {
		if err := readLengths(path, others); err != nil {
			return err
		}
	}
	var jobs func(yield func(optimizeJob) error) error
	if c.from != "" {
		jobs = func(yield func(optimizeJob) error) error { return eachFrom(ctx, c.from, stderr, yield) }
	} else {
		lvls, err := levels.ResolveAll(ctx, pos[:1], stdin)
		if err != nil {
			return err
		}
		if len(lvls) != 1 {
			return usagef("optimize: %q names %d levels; name exactly one", pos[0], len(lvls))
		}
		text, err := readSolution(ctx, pos[1], stdin)
		if err != nil {
			return fmt.Errorf("optimize: %w", err)
		}
		jobs = func(yield func(optimizeJob) error) error { return yield(optimizeJob{level: lvls[0], lurd: text}) }
	}
	var out *optimizeOut
	if c.out != "" {
		if out, err = openOptimizeOut(c.out); err != nil {
			if errors.As(err, new(*outfile.BusyError)) {
				return fmt.Errorf("optimize: --out %w", err)
			}
			return fmt.Errorf("optimize: %w", err)
		}
		defer out.close()
		out.stderr = stderr
	}
	var status io.Writer
	if progress.IsTerminal(stderr) {
		status = stderr
	}
	enc := json.NewEncoder(stdout)
	var before, after optimize.Score
	ours := map[string]optimize.Score{} // level → the shortest optimized solution
	done, failed, skipped := 0, 0, 0
	err = jobs(func(j optimizeJob) error {
		if done > 0 && ctx.Err() != nil {
			return errInterrupted // the solution running was printed, no more start
		}
		if out != nil && out.done[j.key()] {
			skipped++
			return nil
		}
		r := optimizeOne(ctx, j, c, status)
		done++
		noteCase(stderr, r)
		if c.json {
			if err := enc.Encode(r); err != nil {
				return err
			}
		} else {
			printOptimized(stdout, r, c.noLURD)
		}
		if out != nil && ctx.Err() == nil && !r.caseRefused { // one cut short by Ctrl-C, or refused for its case, is done again on resume
			if err := out.write(r); err != nil {
				return err
			}
		}
		if r.Error != "" {
			failed++
			return nil
		}
		before.Pushes += r.Before.Pushes
		before.Moves += r.Before.Moves
		after.Pushes += r.After.Pushes
		after.Moves += r.After.Moves
		if s, ok := ours[r.Level]; !ok || c.metric.Better(r.After, s) {
			ours[r.Level] = r.After
		}
		return nil
	})
	if out != nil && err == nil {
		err = out.follow() // a file replaced as the last result was written
	}
	interrupted := errors.Is(err, errInterrupted) || ctx.Err() != nil
	if err != nil && !interrupted {
		return err
	}
	if c.from != "" {
		summary := fmt.Sprintf("optimized %s for %s: pushes %d → %d, moves %d → %d",
			english.Count(done-failed, "solution", "solutions"), c.metric, before.Pushes, after.Pushes, before.Moves, after.Moves)
		if skipped > 0 {
			summary += fmt.Sprintf("; %d done before (in %s)", skipped, c.out)
		}
		if failed > 0 {
			summary += "; " + english.Count(failed, "error", "errors")
		}
		if interrupted {
			summary += "; interrupted"
			if c.out != "" {
				summary += ": run the same command again to resume"
			}
		}
		w := stdout
		if c.json {
			w = stderr
		}
		fmt.Fprintln(w, summary)
		printComparisons(w, ours, others)
	}
	switch {
	case interrupted:
		return errInterrupted
	case failed > 0:
		return errSilent
	}
	return nil
}

// optimizeJob is one solution to optimize.
type optimizeJob struct {
	level  *level.Level
	lurd   string
	solver string
}

// key names the job in an --out file: its level and solver.
func (j optimizeJob) key() string { return levelID(j.level) + "|" + j.solver }

// maxFromFile is the largest results file --from reads, as for level files.
const maxFromFile = level.MaxInput

// eachFrom reads the solved records of a results file one at a time and
// gives each to yield as it is read: 'soko bench' records (status solved
// and verified) or 'soko solve --json' ones. The file is read as it goes
// (it may be a pipe), up to maxFromFile bytes, and reading stops when ctx
// ends. A last line cut short after whole records (jsonl.CutShort) is left
// out, and said so on stderr. A line that is not such a record (not a JSON
// object, no level or status, a result of soko optimize) is an error
// naming it, and so is a file without one record that has a solution,
// saying what the records lacked. A record without level_hash (older
// files, and every record soko wrote before it recorded the hash) is taken
// for the level its address names now, and a note on stderr says how many
// were not checked.
func eachFrom(ctx context.Context, path string, stderr io.Writer, yield func(optimizeJob) error) error {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() > maxFromFile {
		return fmt.Errorf("optimize: results file %s: %d MiB, more than the %d MiB a results file may take; split it",
			path, st.Size()>>20, maxFromFile>>20)
	}
	f, err := ctxio.Open(ctx, path)
	if errors.Is(err, os.ErrNotExist) {
		return usagef("optimize: results file %s does not exist", path)
	}
	if err != nil {
		return err
	}
	if f, err = jsonl.Unzip(f, path); err != nil {
		return err
	}
	defer f.Close()
	type resolved struct {
		level *level.Level
		hash  string
	}
	cache := map[string]resolved{} // level address → level, read once
	var n fromCounts
	var yieldErr error // yield's own error, returned as it is
	errYield := errors.New("yield failed")
	tail, err := jsonl.Records(&cappedReader{r: f, left: maxFromFile}, path, "{", func(text []byte, line int) error {
		if ctx.Err() != nil {
			return errInterrupted
		}
		var r runLine
		if err := json.Unmarshal(text, &r); err != nil {
			var typeErr *json.UnmarshalTypeError
			switch {
			case text[0] != '{' && json.Valid(text):
				return fmt.Errorf("not a record: a JSON %s, where a record of soko bench or soko solve --json is an object", jsonKind(text[0]))
			case errors.As(err, &typeErr) && typeErr.Field != "":
				return fmt.Errorf("not a record: its %q is a JSON %s", typeErr.Field, typeErr.Value)
			}
			return fmt.Errorf("not a record: %v", err)
		}
		switch {
		case r.Level == "":
			return errors.New("not a record of soko bench or soko solve --json: it has no level")
		case r.Status == "" && jsonl.KindOf(text) == jsonl.Optimize:
			return errors.New("a result of soko optimize, not a record of soko bench or soko solve --json: --from takes the records of the runs to optimize")
		case r.Status == "":
			return errors.New("not a record of soko bench or soko solve --json: it has no status")
		}
		n.records++
		switch {
		case r.Status != "solved":
			n.unsolved++
			return nil
		case r.Solution == "":
			n.noSolution++
			return nil
		case r.Verified != nil && !*r.Verified:
			n.unverified++
			return nil
		}
		l, ok := cache[r.Level]
		if !ok {
			if err := recordedFile(r.Level); err != nil {
				return fmt.Errorf("level %q: %v", r.Level, err)
			}
			lvls, err := levels.ResolveAll(ctx, []string{r.Level}, nil)
			if err != nil {
				return fmt.Errorf("level %q: %v", r.Level, err)
			}
			if len(lvls) != 1 {
				return fmt.Errorf("level %q names %d levels", r.Level, len(lvls))
			}
			l = resolved{lvls[0], bench.LevelHash(lvls[0])}
			cache[r.Level] = l
		}
		if r.LevelHash != "" && r.LevelHash != l.hash { // the record was run on another board than the address names now
			return fmt.Errorf("level %q is not the level this record was run on: the record's level_hash is %s, the level's is %s",
				r.Level, r.LevelHash, l.hash)
		}
		if r.LevelHash == "" {
			n.noHash++
		}
		n.solutions++
		if yieldErr = yield(optimizeJob{level: l.level, lurd: r.Solution, solver: r.solverName()}); yieldErr != nil {
			return errYield
		}
		return nil
	})
	var lineErr *jsonl.LineError
	switch {
	case yieldErr != nil:
		return yieldErr
	case err != nil && (errors.Is(err, errInterrupted) || ctx.Err() != nil):
		return errInterrupted
	case errors.As(err, &lineErr):
		return err
	case err != nil:
		return fmt.Errorf("optimize: results file %w", err)
	}
	if tail.Cut > 0 {
		fmt.Fprintln(stderr, "optimize: "+bench.CutNote(path, tail.Cut, "left out"))
	}
	return n.end(path, stderr)
}

// runLine is what the readers of soko bench and soko solve --json records
// (--from, --compare) take from a line.
type runLine struct {
	Level     string `json:"level"`
	LevelHash string `json:"level_hash"`
	Status    string `json:"status"`
	Verified  *bool  `json:"verified"`
	Solver    string `json:"solver"` // soko bench's
	Algo      string `json:"algo"`   // soko solve --json's
	Solution  string `json:"solution"`
	Pushes    int    `json:"pushes"`
	Moves     int    `json:"moves"`
}

// solverName is the solver that made the record.
func (r *runLine) solverName() string {
	if r.Solver != "" {
		return r.Solver
	}
	return r.Algo
}

// fromCounts counts the records of an --from file by what optimize does
// with them.
type fromCounts struct {
	records    int // records read
	solutions  int // records with a solution, given to optimize
	unsolved   int // status other than solved
	noSolution int // solved, with the solution left out (--no-solution)
	unverified int // solved, but the verifier refused the solution
	noHash     int // given to optimize without a level_hash to check
}

// end is the outcome of a file read to its end: an error when no record
// had a solution, saying what the records lacked; otherwise nil, after a
// note on the records whose level was not checked.
func (n fromCounts) end(path string, stderr io.Writer) error {
	if n.solutions == 0 {
		if n.records == 0 {
			return fmt.Errorf("optimize: results file %s holds no records", path)
		}
		var why []string
		if n.noSolution > 0 {
			why = append(why, fmt.Sprintf("%d solved without the solution recorded (written with --no-solution)", n.noSolution))
		}
		if n.unverified > 0 {
			why = append(why, fmt.Sprintf("%d solved with a solution the verifier refused", n.unverified))
		}
		if n.unsolved > 0 {
			why = append(why, fmt.Sprintf("%d not solved", n.unsolved))
		}
		return fmt.Errorf("optimize: results file %s has no record with a solution to optimize: of %s, %s",
			path, english.Count(n.records, "record", "records"), strings.Join(why, ", "))
	}
	if n.noHash > 0 {
		fmt.Fprintf(stderr, "optimize: %s: %s no level_hash (written by an older soko): each is taken for the level its address names now, unchecked\n",
			path, english.Count(n.noHash, "record has", "records have"))
	}
	return nil
}

// jsonKind names the kind of JSON value that starts with c.
func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// cappedReader reads r and fails once more than left bytes come.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, fmt.Errorf("larger than the %d MiB a results file may take", maxFromFile>>20)
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return 0, fmt.Errorf("larger than the %d MiB a results file may take", maxFromFile>>20)
	}
	return n, err
}

// optimizeOut is the --out file: one JSON line per optimized solution,
// appended, and the keys of those already in it, which a run again skips.
// Like bench's results (bench.Results), it follows its path when another
// file is renamed over it: before each write, the file now at the path is
// taken (locked, recognised as optimize's) and given the lines this run
// wrote to the old one that it lacks, and stderr is told; where it cannot
// be, the write fails, naming the file and the results lost with the old
// one.
type optimizeOut struct {
	path   string
	f      *os.File
	done   map[string]bool
	mine   []outfile.Line // the results this run wrote to f
	stderr io.Writer
}

func openOptimizeOut(path string) (*optimizeOut, error) {
	f, err := outfile.OpenAppend(path) // locked: one writer at a time
	if err != nil {
		return nil, err
	}
	o := &optimizeOut{path: path, f: f, done: map[string]bool{}}
	tail, err := jsonl.Records(f, path, optimizedPrefix, func(line []byte, _ int) error {
		r, err := parseOptimized(line)
		if err == nil {
			o.done[r.Level+"|"+r.Solver] = true
		}
		return err
	})
	if errors.Is(err, jsonl.ErrGzip) {
		err = fmt.Errorf("--out %s is gzip-compressed: optimize --out appends plain JSON lines; gunzip it first, or give a new file", path)
	}
	if err == nil {
		err = outfile.Trim(f, tail.Keep)
	}
	if err == nil && tail.Newline { // a last result without its newline: end it, not splice the next to it
		_, err = f.Write([]byte{'\n'})
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

// optimizedPrefix is how every line of an --out file begins (Level is
// optimized's first field); a last line that begins so but is not a result
// was cut short by a kill.
const optimizedPrefix = `{"level":"`

// parseOptimized reads one line of an --out file: a result of soko
// optimize has a level and a metric and no key, which a record of soko
// bench has.
func parseOptimized(line []byte) (optimized, error) {
	var r optimized
	if err := json.Unmarshal(line, &r); err != nil || r.Level == "" || r.Metric == "" || jsonl.KindOf(line) == jsonl.Bench {
		what := "not a result of soko optimize"
		if jsonl.KindOf(line) == jsonl.Bench {
			what = "a record of soko bench, not a result of soko optimize"
		}
		return optimized{}, fmt.Errorf("%s; give --out a new file or one soko optimize wrote", what)
	}
	return r, nil
}

// write appends one result as one line, so that the file holds whole
// results whenever the process stops.
func (o *optimizeOut) write(r optimized) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := o.follow(); err != nil {
		return err
	}
	off, err := o.f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = o.f.Write(append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("optimize: writing --out %s: %w", o.path, err)
	}
	o.mine = append(o.mine, outfile.Line{Off: off, Len: len(b) + 1, Key: r.Level + "|" + r.Solver})
	return nil
}

// follow takes the file now at the path when it is not the one held
// (optimizeOut).
func (o *optimizeOut) follow() error {
	lost := func(n int) string {
		if n == 0 {
			return "every result this run wrote is in the new file"
		}
		return fmt.Sprintf("%s this run wrote went only to the old file, gone with it, and will be optimized again on a run again", english.Count(n, "result", "results"))
	}
	var no *optimizeOut
	nf, copied, err := outfile.Follow(o.f, o.path, o.mine, func() (*os.File, func(string) bool, error) {
		var err error
		if no, err = openOptimizeOut(o.path); err != nil {
			return nil, nil, err
		}
		return no.f, func(key string) bool { return no.done[key] }, nil
	})
	var copyErr *outfile.CopyError
	switch {
	case errors.Is(err, outfile.ErrRemoved):
		return fmt.Errorf("optimize: --out %s was removed while this run wrote it; %s", o.path, lost(len(o.mine)))
	case errors.As(err, &copyErr):
		return fmt.Errorf("optimize: --out %s was replaced while this run wrote it, and copying its results to the new file failed: %w; %s", o.path, copyErr.Err, lost(copyErr.Missing))
	case err != nil:
		return fmt.Errorf("optimize: --out %s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it, and the new one cannot be taken: %w; %s", o.path, err, lost(len(o.mine)))
	case nf == nil:
		return nil
	}
	o.f, o.mine = nf, nil
	maps.Copy(o.done, no.done)
	note := ""
	if copied > 0 {
		note = fmt.Sprintf(", after putting there the %s written by this run that it lacked", english.Count(copied, "result", "results"))
	}
	fmt.Fprintf(o.stderr, "optimize: --out %s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it; writing on to the new file%s\n", o.path, note)
	return nil
}

func (o *optimizeOut) close() error { return o.f.Close() }

func optimizeOne(ctx context.Context, j optimizeJob, c *optimizeConfig, status io.Writer) optimized {
	r := optimized{Level: levelID(j.level), Title: j.level.Label(), Solver: j.solver, Metric: c.metric.String()}
	moves, err := level.ParseLURD(j.lurd)
	if err != nil {
		r.Error = "solution: " + err.Error()
		return r
	}
	if r.caseNote, err = checkCase(j.level, moves, c.lenient); err != nil {
		r.Error, r.caseRefused = "solution refused: "+err.Error(), true
		return r
	}
	if c.time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.time)
		defer cancel()
	}
	start := time.Now()
	shown := false
	opts := optimize.Options{Metric: c.metric, Radii: c.radii, Memory: c.memory}
	if status != nil {
		opts.Progress = func(p optimize.Progress) {
			fmt.Fprintf(status, "\r\x1b[K%s: %s, pushes %d, moves %d, %s", r.Level, p.Pass, p.Pushes, p.Moves, time.Since(start).Round(time.Second))
			shown = true
		}
	}
	res, err := optimize.Optimize(ctx, j.level, moves, opts)
	if shown {
		fmt.Fprint(status, "\r\x1b[K")
	}
	r.Seconds = time.Since(start).Seconds()
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Before, r.After, r.Complete, r.MemoryLimited = res.Before, res.After, res.Complete, res.MemoryLimited
	r.Searches, r.Expanded = res.Searches, res.Expanded
	if !c.noLURD {
		r.Solution = level.FormatLURD(res.Moves)
	}
	return r
}

// noteCase says on stderr what --lenient-case normalised in r's solution.
func noteCase(stderr io.Writer, r optimized) {
	if r.caseNote != "" {
		fmt.Fprintf(stderr, "soko: optimize: %s: %s\n", lineName(r.Level, r.Title), r.caseNote)
	}
}

func printOptimized(w io.Writer, r optimized, noLURD bool) {
	name := lineName(r.Level, r.Title)
	if r.Error != "" {
		fmt.Fprintf(w, "%-24s error: %s\n", name, r.Error)
		return
	}
	end := "complete"
	switch {
	case r.MemoryLimited:
		end = "memory limit"
	case !r.Complete:
		end = "stopped"
	}
	fmt.Fprintf(w, "%-24s pushes %4d → %4d  moves %5d → %5d  time %7.3fs  %s\n",
		name, r.Before.Pushes, r.After.Pushes, r.Before.Moves, r.After.Moves, r.Seconds, end)
	if r.Solution != "" && !noLURD {
		fmt.Fprintf(w, "  %s\n", r.Solution)
	}
}

// policyFlags defines --optimize and --metric, the optimizer policy of
// soko solve and soko bench (solve.Run).
func policyFlags(fs *flag.FlagSet, p *solve.Policy) {
	fs.Var(onOffValue{&p.Off}, "optimize", "`on` or off: shorten each solution with the optimizer within --time (off: the solver's own solution)")
	fs.Func("metric", "what the optimizer shortens first, `M`: pushes or moves (default pushes)", func(s string) error {
		m, err := optimize.ParseMetric(s)
		if err != nil {
			return errors.New("want pushes, moves, pushes,moves or moves,pushes")
		}
		p.Metric = m
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
