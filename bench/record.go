package bench

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/internal/outfile"
	"soko/level"
)

// Budget is the limit of one run. It is the part of solver.Budget that names
// a benchmark's budget axis; the memory limit is a property of the machine
// and is recorded beside it (Record.MemoryLimit), not in the key.
type Budget struct {
	Time       time.Duration `json:"-"`
	Nodes      int64         `json:"nodes,omitempty"`
	Iterations int64         `json:"iterations,omitempty"`
}

// budgetJSON is Budget on disk, with the time in seconds.
type budgetJSON struct {
	TimeS      float64 `json:"time_s,omitempty"`
	Nodes      int64   `json:"nodes,omitempty"`
	Iterations int64   `json:"iterations,omitempty"`
}

// MarshalJSON writes the time limit in seconds.
func (b Budget) MarshalJSON() ([]byte, error) {
	return json.Marshal(budgetJSON{b.Time.Seconds(), b.Nodes, b.Iterations})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (b *Budget) UnmarshalJSON(data []byte) error {
	var j budgetJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*b = Budget{Time: time.Duration(j.TimeS*1e9 + 0.5), Nodes: j.Nodes, Iterations: j.Iterations}
	return nil
}

// String is the budget's label in tables and keys: "i=100", "n=5000",
// "t=1s", or several joined by commas ("i=100,t=10s"); "none" for no limit.
func (b Budget) String() string {
	var parts []string
	if b.Iterations > 0 {
		parts = append(parts, "i="+strconv.FormatInt(b.Iterations, 10))
	}
	if b.Nodes > 0 {
		parts = append(parts, "n="+strconv.FormatInt(b.Nodes, 10))
	}
	if b.Time > 0 {
		parts = append(parts, "t="+b.Time.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// Compare orders budgets by iterations, then nodes, then time.
func (b Budget) Compare(c Budget) int {
	switch {
	case b.Iterations != c.Iterations:
		return cmpInt(b.Iterations, c.Iterations)
	case b.Nodes != c.Nodes:
		return cmpInt(b.Nodes, c.Nodes)
	}
	return cmpInt(int64(b.Time), int64(c.Time))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Statuses a Record can have beyond the solver's own (solver.Status names:
// "solved", "no solution", "time limit", "memory limit", "node limit",
// "cancelled", "iteration limit", "depth limit", "gave up").
const (
	StatusError  = "error"  // the run could not be done, or its solution did not verify
	StatusFailed = "failed" // an external program ended without a solution
)

// What a Record's cpu_s counts (Record.CPUScope); see Runner.
const (
	CPUThread   = "thread"   // the thread the run was called on: all of a run on one goroutine; absent in older files means this
	CPUProcess  = "process"  // soko's whole process while the run had it alone: every goroutine of the run, and the garbage collector
	CPUPrograms = "programs" // every process of an external program's run
	CPUNone     = "none"     // not measured (cpu_s is 0): several threads beside other runs, or no clock to read
)

// Record is one finished run: one line of a results file.
type Record struct {
	Key       string            `json:"key"`
	Solver    string            `json:"solver"`
	Params    map[string]string `json:"params,omitempty"`
	External  string            `json:"external,omitempty"` // the command template of an external solver
	Level     string            `json:"level"`              // collection:position, or the file (levels.Entry.ID)
	Title     string            `json:"title,omitempty"`    // what the file calls the level (level.Label)
	LevelHash string            `json:"level_hash"`         // see LevelHash
	Budget    Budget            `json:"budget"`
	Seed      uint64            `json:"seed"`

	Status   string `json:"status"`
	Verified bool   `json:"verified"` // the solution was replayed by package verify
	Pushes   int    `json:"pushes"`
	Moves    int    `json:"moves"`
	// The optimizer (solve.Run): Optimize is its policy when not the
	// default ("off", or "moves" for moves first; part of the key and
	// label); FoundPushes and FoundMoves are the solver's own solution,
	// AStarPushes and AStarMoves A*'s when the found one wandered and A*
	// solved the level again (solve.WanderRatio), and OptimizeS the
	// optimizer's part of WallS, that search included. Records written before soko
	// optimized by default have none of them, and hold the solver's own
	// solution in Pushes and Moves.
	Optimize    string  `json:"optimize,omitempty"`
	FoundPushes int     `json:"found_pushes,omitempty"`
	FoundMoves  int     `json:"found_moves,omitempty"`
	AStarPushes int     `json:"astar_pushes,omitempty"`
	AStarMoves  int     `json:"astar_moves,omitempty"`
	OptimizeS   float64 `json:"optimize_s,omitempty"`
	WallS       float64 `json:"wall_s"`
	CPUS        float64 `json:"cpu_s"` // CPU seconds of this run alone, as CPUScope says; see Runner
	CPUScope    string  `json:"cpu_scope,omitempty"`

	Expanded     int64            `json:"expanded,omitempty"`
	Generated    int64            `json:"generated,omitempty"`
	Stored       int64            `json:"stored,omitempty"`
	Iterations   int64            `json:"iterations,omitempty"`
	TreeSize     int64            `json:"tree_size,omitempty"`
	UniqueStates int64            `json:"unique_states,omitempty"`
	Counts       map[string]int64 `json:"counts,omitempty"`       // the solver's own counters (solver.Stats.Counts)
	Strategy     string           `json:"strategy,omitempty"`     // the portfolio member that solved the level (solver.Stats.Strategy)
	Threads      int              `json:"threads,omitempty"`      // soko bench --threads, when more than 1 (part of the key); absent means 1
	Model        string           `json:"model,omitempty"`        // soko bench --model as ModelID names it (part of the key); absent means none
	PeakBytes    int64            `json:"peak_bytes"`             // the search's tables (Stats.Bytes); for external programs the largest max RSS of their processes
	MemoryLimit  int64            `json:"memory_limit,omitempty"` // the memory budget the run had

	Solution string `json:"solution,omitempty"`
	Error    string `json:"error,omitempty"`
}

// CPUMeasured reports whether CPUS holds the run's CPU time.
func (r *Record) CPUMeasured() bool { return r.CPUScope != CPUNone }

// Solved reports whether the run found a verified solution.
func (r *Record) Solved() bool { return r.Status == "solved" && r.Verified }

// SolverLabel names the solver with its parameters, threads and model, as
// SolverSpec.Label does: "wastar(p=2,w=200)", "portfolio(threads=2)",
// "alphazero(model=m.bin@1a2b3c4d)". Runs with different threads or models
// are different rows of a report.
func (r *Record) SolverLabel() string {
	return solverLabel(r.Solver, r.Params, r.Threads, r.Model, r.Optimize)
}

// Collection is the part of the level id before the last ':', or the whole
// id when it has none: an embedded collection's name, or the level file as
// it was named on the command line. Reports show a file by its base name
// (see collectionNames).
func (r *Record) Collection() string {
	if i := strings.LastIndexByte(r.Level, ':'); i >= 0 {
		return r.Level[:i]
	}
	return r.Level
}

func solverLabel(name string, params map[string]string, threads int, model, optimize string) string {
	args := formatParams(params)
	if threads > 1 {
		if args != "" {
			args += ","
		}
		args += "threads=" + strconv.Itoa(threads)
	}
	if model != "" {
		if args != "" {
			args += ","
		}
		args += "model=" + model
	}
	if optimize != "" {
		if args != "" {
			args += ","
		}
		args += "optimize=" + optimize
	}
	if args == "" {
		return name
	}
	return name + "(" + args + ")"
}

func formatParams(params map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		parts = append(parts, k+"="+params[k])
	}
	return strings.Join(parts, ",")
}

// runKey identifies a run: solver, parameters, threads, model, optimizer
// policy (when not the default), level id and hash, budget, seed. The level id is part of it so that two levels with the same
// board in one benchmark are two runs; the hash, so that an edited level
// file is run again. One thread leaves the key as it was before threads
// existed, so older results files resume.
func runKey(solverName string, params map[string]string, threads int, model, optimize, levelID, hash string, b Budget, seed uint64) string {
	return strings.Join([]string{solverLabel(solverName, params, threads, model, optimize), levelID, hash, b.String(), strconv.FormatUint(seed, 10)}, "|")
}

// RunKey is the key of the run r records, made from its fields as
// runKey makes it.
func (r *Record) RunKey() string {
	return runKey(r.Solver, r.Params, r.Threads, r.Model, r.Optimize, r.Level, r.LevelHash, r.Budget, r.Seed)
}

// fixThreadsKey gives a record written with threads > 1 but a key without
// them (soko bench before threads were in the key) the key it has now, so
// that resuming or merging does not take it for a one-thread run.
func fixThreadsKey(r *Record) {
	if r.Threads > 1 && r.Key == runKey(r.Solver, r.Params, 1, r.Model, r.Optimize, r.Level, r.LevelHash, r.Budget, r.Seed) {
		r.Key = r.RunKey()
	}
}

// LevelHash is a short hash of a level's board: the first 16 hex digits of
// the SHA-256 of its rows without trailing blanks, one per line. Titles and
// comments do not change it.
func LevelHash(l *level.Level) string {
	h := sha256.New()
	for _, r := range l.Rows {
		io.WriteString(h, strings.TrimRight(r, " "))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ReadRecords reads a results file's records. A last record without its
// newline counts; a last line cut short after whole records (a run being
// written when the process was killed; jsonl.Records) is left out; any
// other line that is not a record is an error naming its line.
func ReadRecords(r io.Reader, name string) ([]Record, error) {
	recs, _, _, err := readRecordsAt(r, name)
	return recs, err
}

// recordPrefix is how every line of a results file begins (Key is
// Record's first field); a last line that begins so but is not a record
// was cut short by a kill.
const recordPrefix = `{"key":"`

// readRecordsAt also returns each record's line number and where the whole
// records end.
func readRecordsAt(r io.Reader, name string) ([]Record, []int, jsonl.Tail, error) {
	var recs []Record
	var lines []int
	tail, err := jsonl.Records(r, name, recordPrefix, func(line []byte, n int) error {
		rec, err := parseRecord(line)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
		lines = append(lines, n)
		return nil
	})
	if err != nil {
		return nil, nil, jsonl.Tail{}, err
	}
	return recs, lines, tail, nil
}

// parseRecord reads one line of a results file. A record of soko bench
// has a key, solver, level and status; what soko optimize and soko solve
// --json write is named as such, so that neither is taken for a run.
func parseRecord(line []byte) (Record, error) {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil {
		return Record{}, fmt.Errorf("not a soko bench record: %v", err)
	}
	if rec.Key == "" || rec.Solver == "" || rec.Level == "" || rec.Status == "" {
		switch jsonl.KindOf(line) {
		case jsonl.Optimize:
			return Record{}, errors.New("a record of soko optimize, not of soko bench")
		case jsonl.Solve:
			return Record{}, errors.New("a record of soko solve --json, not of soko bench")
		}
		return Record{}, errors.New(`not a soko bench record: want "key", "solver", "level" and "status"`)
	}
	fixThreadsKey(&rec)
	return rec, nil
}

// differingFields names the JSON fields in which two records differ.
func differingFields(a, b *Record) []string {
	ma, mb := recordFields(a), recordFields(b)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(ma)) {
		if !reflect.DeepEqual(ma[k], mb[k]) {
			out = append(out, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(mb)) {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func recordFields(r *Record) map[string]any {
	b, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// outcome is a record's result in a few words: "solved, 33 pushes", "time
// limit".
func outcome(r *Record) string {
	if r.Solved() {
		return fmt.Sprintf("solved, %s, %.3f s", english.Count(r.Pushes, "push", "pushes"), r.WallS)
	}
	return r.Status
}

// ReadFiles reads several results files and joins their records; a run that
// occurs in more than one place is kept once (the first). A last line cut
// short that it leaves out is said on log when not nil (CutNote).
func ReadFiles(log io.Writer, paths ...string) ([]Record, error) {
	var all []Record
	for _, p := range paths {
		f, err := jsonl.Open(p)
		if err != nil {
			return nil, err
		}
		recs, _, tail, err := readRecordsAt(f, p)
		f.Close()
		if err != nil {
			return nil, err
		}
		if tail.Cut > 0 && log != nil {
			fmt.Fprintln(log, CutNote(p, tail.Cut, "left out"))
		}
		all = append(all, recs...)
	}
	out, _ := Dedup(all)
	return out, nil
}

// CutNote is what a reader of results files says of a last line cut short
// by a writer that stopped while writing it, which it did (left out, cut
// off).
func CutNote(file string, line int, did string) string {
	return fmt.Sprintf("%s:%d: %s a last line cut short, not a whole record (its writer stopped while writing it)", file, line, did)
}

// Dedup keeps the first record of each key and counts the others.
func Dedup(recs []Record) ([]Record, int) {
	seen := make(map[string]bool, len(recs))
	out := recs[:0:0]
	dups := 0
	for _, r := range recs {
		if seen[r.Key] {
			dups++
			continue
		}
		seen[r.Key] = true
		out = append(out, r)
	}
	return out, dups
}

// SortRecords puts records in a canonical order: solver label, budget,
// level, seed.
func SortRecords(recs []Record) {
	slices.SortStableFunc(recs, func(a, b Record) int {
		if c := strings.Compare(a.SolverLabel(), b.SolverLabel()); c != 0 {
			return c
		}
		if c := a.Budget.Compare(b.Budget); c != 0 {
			return c
		}
		if c := CompareLevelIDs(a.Level, b.Level); c != 0 {
			return c
		}
		if a.Seed != b.Seed {
			return cmpInt(int64(a.Seed), int64(b.Seed))
		}
		return strings.Compare(a.Key, b.Key)
	})
}

// CompareLevelIDs orders "microban:2" before "microban:10".
func CompareLevelIDs(a, b string) int {
	ca, ia := SplitLevelID(a)
	cb, ib := SplitLevelID(b)
	if c := strings.Compare(ca, cb); c != 0 {
		return c
	}
	return cmpInt(int64(ia), int64(ib))
}

// SplitLevelID splits a level id into its collection and number
// ("microban:12": "microban", 12); an id without a number is all
// collection, number 0.
func SplitLevelID(id string) (string, int) {
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		if n, err := strconv.Atoi(id[i+1:]); err == nil {
			return id[:i], n
		}
	}
	return id, 0
}

// Merge joins results files into w in canonical order, keeping each run
// once: the first of its records, in the order of paths and then of lines.
// It returns the number of runs written and of duplicates dropped. When log
// is not nil, Merge says there which duplicates differ from the record kept
// (where each is, and in which fields), how many were identical to it, and
// which last line cut short it left out.
func Merge(w, log io.Writer, paths ...string) (runs, dups int, err error) {
	type at struct {
		file string
		line int
	}
	var all []Record
	var where []at
	for _, p := range paths {
		f, err := jsonl.Open(p)
		if err != nil {
			return 0, 0, err
		}
		recs, lines, tail, err := readRecordsAt(f, p)
		f.Close()
		if err != nil {
			return 0, 0, err
		}
		if tail.Cut > 0 && log != nil {
			fmt.Fprintln(log, "bench merge: "+CutNote(p, tail.Cut, "left out"))
		}
		all = append(all, recs...)
		for _, n := range lines {
			where = append(where, at{file: p, line: n})
		}
	}
	first := map[string]int{}
	identical, differing := 0, 0
	const maxShown = 20
	for i := range all {
		j, seen := first[all[i].Key]
		if !seen {
			first[all[i].Key] = i
			continue
		}
		fields := differingFields(&all[j], &all[i])
		if len(fields) == 0 {
			identical++
			continue
		}
		differing++
		if log != nil && differing <= maxShown {
			fmt.Fprintf(log, "bench merge: %s differs in %s: kept %s:%d (%s), dropped %s:%d (%s)\n",
				all[i].Key, strings.Join(fields, ", "), where[j].file, where[j].line, outcome(&all[j]),
				where[i].file, where[i].line, outcome(&all[i]))
		}
	}
	if log != nil && identical+differing > 0 {
		if differing > maxShown {
			fmt.Fprintf(log, "bench merge: … and %s more\n", english.Count(differing-maxShown, "differing duplicate", "differing duplicates"))
		}
		fmt.Fprintf(log, "bench merge: %s dropped: %d identical to the run kept, %d differing (the first record of a run is kept)\n",
			english.Count(identical+differing, "duplicate record", "duplicate records"), identical, differing)
	}
	all, dups = Dedup(all)
	SortRecords(all)
	bw := bufio.NewWriter(w)
	for i := range all {
		b, err := json.Marshal(&all[i])
		if err != nil {
			return 0, 0, err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return len(all), dups, bw.Flush()
}

// Results is an open results file that runs are appended to, one whole line
// per write, so that the file is valid JSONL whenever the process stops.
//
// Before each write it checks that its path still names the file it
// holds: a file renamed over it (an editor, sed -i, cp and mv) would
// otherwise take every later record to the old file, unlinked, and the
// lock with it. It then follows the path: it takes the new file as
// OpenResults does (locked, recognised as records), appends to it the
// records this process wrote that it lacks, says so through Notify, and
// writes on there. Where it cannot (the file was removed, another process
// holds the new one, or it is not a results file) the write fails with a
// ReplacedError counting the runs that went only to the old file.
type Results struct {
	mu     sync.Mutex
	path   string
	f      *os.File
	done   map[string]bool
	n      int
	cut    int
	mine   []outfile.Line // the records this process wrote to f since it took it
	Notify func(string)   // told when the file was replaced and followed; may be nil
}

// ReplacedError is a write refused because the results file was replaced
// or removed while the run wrote it, and the new one cannot be taken.
type ReplacedError struct {
	Path    string
	Removed bool
	Lost    int   // runs of this process that are only in the old file
	Err     error // why the new file cannot be taken; nil when removed
}

func (e *ReplacedError) Error() string {
	lost := "every run written by this run is in the new file"
	if e.Lost > 0 {
		lost = fmt.Sprintf("%s written by this run went only to the old file, gone with it, and will be run again", english.Count(e.Lost, "run", "runs"))
	}
	if e.Removed {
		return fmt.Sprintf("%s was removed while this run wrote it; %s", e.Path, lost)
	}
	return fmt.Sprintf("%s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it, and the new one cannot be taken: %v; %s", e.Path, e.Err, lost)
}

func (e *ReplacedError) Unwrap() error { return e.Err }

// OpenResults opens or creates the results file at path for appending. A
// file that holds anything but soko bench records (blank lines aside) is
// refused, untouched: a gzip file, and one whose only line is a record cut
// short, too. The runs already in it are remembered (Done); a last record
// cut short by a killed process after whole ones (jsonl.Records) is cut
// off, and a last record without its newline is given one.
func OpenResults(path string) (*Results, error) {
	if err := outfile.Check(path); err != nil {
		return nil, err
	}
	f, err := outfile.OpenAppend(path) // locked: one writer at a time
	if err != nil {
		return nil, err
	}
	recs, _, tail, err := readRecordsAt(f, path)
	if errors.Is(err, jsonl.ErrGzip) {
		f.Close()
		return nil, fmt.Errorf("%s is gzip-compressed: bench --out appends plain JSON lines; gunzip it first, or give a new file", path)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w; --out takes a new file or one soko bench wrote", err)
	}
	if err := outfile.Trim(f, tail.Keep); err != nil {
		f.Close()
		return nil, err
	}
	if tail.Newline { // a last record without its newline: end it, not splice the next to it
		if _, err := f.Write([]byte{'\n'}); err != nil {
			f.Close()
			return nil, err
		}
	}
	done := make(map[string]bool, len(recs))
	for _, r := range recs {
		done[r.Key] = true
	}
	return &Results{path: path, f: f, done: done, n: len(recs), cut: tail.Cut}, nil
}

// Cut is the line of the record cut short that OpenResults cut off, 0 if
// none.
func (r *Results) Cut() int { return r.cut }

// Done reports whether the run with this key is in the file.
func (r *Results) Done(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done[key]
}

// Keys returns the keys of the runs in the file.
func (r *Results) Keys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Collect(maps.Keys(r.done))
}

// Len is the number of runs in the file.
func (r *Results) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Write appends one record as one line and syncs nothing: the line is in
// the kernel once Write returns, which survives the process being killed.
// A file replaced meanwhile is followed first (Results).
func (r *Results) Write(rec Record) error {
	b, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.follow(); err != nil {
		return err
	}
	if r.done[rec.Key] {
		return nil
	}
	off, err := r.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if _, err := r.f.Write(b); err != nil {
		return err
	}
	r.mine = append(r.mine, outfile.Line{Off: off, Len: len(b), Key: rec.Key})
	r.done[rec.Key] = true
	r.n++
	return nil
}

// Settle follows the file once more after the last write, so that a
// record written as the file was being replaced reaches the new one.
func (r *Results) Settle() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.follow()
}

// follow takes the file now at the path when it is not the one held
// (Results), with r.mu held.
func (r *Results) follow() error {
	if r.f == nil {
		return errors.New("results file already closed")
	}
	var nr *Results
	nf, copied, err := outfile.Follow(r.f, r.path, r.mine, func() (*os.File, func(string) bool, error) {
		var err error
		if nr, err = OpenResults(r.path); err != nil {
			return nil, nil, err
		}
		return nr.f, func(key string) bool { return nr.done[key] }, nil
	})
	var copyErr *outfile.CopyError
	switch {
	case errors.Is(err, outfile.ErrRemoved):
		return &ReplacedError{Path: r.path, Removed: true, Lost: len(r.mine)}
	case errors.As(err, &copyErr):
		return &ReplacedError{Path: r.path, Lost: copyErr.Missing, Err: copyErr.Err}
	case err != nil:
		return &ReplacedError{Path: r.path, Lost: r.lostTo(r.path), Err: err}
	case nf == nil:
		return nil
	}
	r.f, r.cut = nf, 0
	for k := range nr.done {
		r.done[k] = true
	}
	r.n = nr.n + copied
	r.mine = nil // all in the new file now; those written next are counted anew
	if r.Notify != nil {
		note := ""
		if copied > 0 {
			note = fmt.Sprintf(", after putting there the %s written by this run that it lacked", english.Count(copied, "record", "records"))
		}
		r.Notify(fmt.Sprintf("%s was replaced by another file (renamed over it: an editor, sed -i, cp and mv) while this run wrote it; writing on to the new file%s", r.path, note))
	}
	return nil
}

// Close closes the file.
func (r *Results) Close() error {
	if r.f == nil {
		return errors.New("results file already closed")
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// JSONLWriter writes records as JSON lines to any writer, such as stdout.
type JSONLWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewJSONLWriter returns a sink writing to w.
func NewJSONLWriter(w io.Writer) *JSONLWriter { return &JSONLWriter{w: w} }

// Write writes one record as one line.
func (j *JSONLWriter) Write(rec Record) error {
	b, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err = j.w.Write(append(b, '\n'))
	return err
}

// lostTo counts the records this process wrote to the file it holds that
// the file now at path lacks: all of them when it cannot be read as
// results.
func (r *Results) lostTo(path string) int {
	f, err := jsonl.Open(path)
	if err != nil {
		return len(r.mine)
	}
	defer f.Close()
	recs, _, _, err := readRecordsAt(f, path)
	if err != nil {
		return len(r.mine)
	}
	there := make(map[string]bool, len(recs))
	for _, rec := range recs {
		there[rec.Key] = true
	}
	lost := 0
	for _, w := range r.mine {
		if !there[w.Key] {
			lost++
		}
	}
	return lost
}
