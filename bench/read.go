package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/solver"
)

// ReadRecords reads a results file's records. A last record without its
// newline counts; a last line cut short after whole records (a run being
// written when the process was killed; jsonl.Records) is left out; any
// other line that is not a record is an error naming its line.
func ReadRecords(r io.Reader, name string) ([]Record, error) {
	recs, _, _, err := readRecordsAt(context.Background(), r, name)
	return recs, err
}

// recordPrefix is how every line of a results file begins (Key is
// Record's first field); a last line that begins so but is not a record
// was cut short by a kill.
const recordPrefix = `{"key":"`

// readRecordsAt also returns each record's line number and where the whole
// records end.
func readRecordsAt(ctx context.Context, r io.Reader, name string) ([]Record, []int, jsonl.Tail, error) {
	var recs []Record
	var lines []int
	tail, err := jsonl.Records(r, name, recordPrefix, func(line []byte, n int) error {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
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
	if err := checkValues(&rec); err != nil {
		return Record{}, fmt.Errorf("not a soko bench record: %v", err)
	}
	fixThreadsKey(&rec)
	return rec, nil
}

// checkValues refuses a record whose values soko never writes: a status
// that is none of its own, a count below 0, a time below 0; a hand-edited
// or corrupted file would otherwise be reported as if run.
func checkValues(r *Record) error {
	known := r.Status == StatusError || r.Status == StatusFailed
	for _, s := range solver.Statuses() {
		known = known || r.Status == s.String()
	}
	switch {
	case !known:
		return fmt.Errorf("status %q is none a run ends with", r.Status)
	case r.Pushes < 0 || r.Moves < 0 || r.Expanded < 0 || r.Generated < 0 || r.Stored < 0 || r.Iterations < 0:
		return errors.New("a count below 0")
	case r.WallS < 0 || r.SolveS < 0 || r.OptimizeS < 0 || r.CPUS < 0:
		return errors.New("a time below 0")
	}
	return nil
}

// ReadFiles reads several results files and joins their records; a run that
// occurs in more than one place is kept once (the first). A last line cut
// short that it leaves out is said on log when not nil (CutNote).
func ReadFiles(log io.Writer, paths ...string) ([]Record, error) {
	recs, _, err := ReadFilesContext(context.Background(), log, paths...)
	return recs, err
}

// ReadFilesContext is ReadFiles that stops when ctx ends, returning its
// error. It also returns how many runs of a later file it left out as
// repeats, with other results, of runs of an earlier one (the same
// solver, level, budget and seed run again, as by another build), and
// says so on log for each such file: those files are arms to compare
// (ReadArms), not parts of one bench.
func ReadFilesContext(ctx context.Context, log io.Writer, paths ...string) ([]Record, int, error) {
	var all []Record
	var from []int // all[i]'s file, an index in paths
	for i, p := range paths {
		recs, err := readResults(ctx, log, p)
		if err != nil {
			return nil, 0, err
		}
		all = append(all, recs...)
		for range recs {
			from = append(from, i)
		}
	}
	repeats := noteRepeats(log, all, from, paths)
	out, _ := Dedup(all)
	return out, repeats, nil
}

// readResults reads one results file, saying on log (when not nil) that it
// left out a last line cut short.
func readResults(ctx context.Context, log io.Writer, path string) ([]Record, error) {
	f, err := jsonl.Open(path)
	if err != nil {
		return nil, err
	}
	recs, _, tail, err := readRecordsAt(ctx, f, path)
	f.Close()
	if err != nil {
		return nil, err
	}
	if tail.Cut > 0 && log != nil {
		fmt.Fprintln(log, CutNote(path, tail.Cut, "left out"))
	}
	return recs, nil
}

// noteRepeats counts the records of all (from files from[i] of paths)
// whose key a record of an earlier file holds with other results, and
// says on log, per file, how many it repeats of which file.
func noteRepeats(log io.Writer, all []Record, from []int, paths []string) int {
	byFile := map[[2]int]int{} // {later file, earlier file} -> repeats
	total := 0
	eachRepeat(all, func(j, i int, fields []string) {
		if from[j] != from[i] && len(fields) > 0 {
			byFile[[2]int{from[i], from[j]}]++
			total++
		}
	})
	if log != nil {
		for _, k := range slices.SortedFunc(maps.Keys(byFile), func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) }) {
			fmt.Fprintf(log, "%s: %s of %s with other results: left out, the first file's kept\n",
				paths[k[0]], english.Count(byFile[k], "run repeats a run", "runs repeat runs"), paths[k[1]])
		}
	}
	return total
}

// ReadArms reads each results file of paths as an arm of its own, to
// compare them (the runs of two builds, or of one build on two days):
// every record gets its file's arm name from arms (ArmNames), which its
// solver label then carries, so that the same run in two files is two
// runs (Dedup keeps one of each arm). Within a file a run is kept once,
// as ReadFiles keeps it.
func ReadArms(ctx context.Context, log io.Writer, arms, paths []string) ([]Record, error) {
	var all []Record
	for i, p := range paths {
		recs, err := readResults(ctx, log, p)
		if err != nil {
			return nil, err
		}
		recs, _ = Dedup(recs)
		for j := range recs {
			recs[j].Arm = arms[i]
		}
		all = append(all, recs...)
	}
	return all, nil
}

// ArmNames names the arms of results files: each file's base name without
// .gz and .jsonl ("runs/new.jsonl.gz" is "new"), or where two files would
// share a name, their paths so cut ("a/new", "b/new"). A file given twice
// is an error.
func ArmNames(paths []string) ([]string, error) {
	cut := func(p string) string {
		p = strings.TrimSuffix(p, ".gz")
		return strings.TrimSuffix(p, ".jsonl")
	}
	names := make([]string, len(paths))
	count := map[string]int{}
	for i, p := range paths {
		names[i] = cut(filepath.Base(p))
		count[names[i]]++
	}
	seen := map[string]string{}
	for i, p := range paths {
		if count[names[i]] > 1 {
			names[i] = cut(filepath.ToSlash(filepath.Clean(p)))
		}
		if q, ok := seen[names[i]]; ok {
			return nil, fmt.Errorf("%s and %s: one file given twice, or two that name one arm alike: give each arm once", q, p)
		}
		seen[names[i]] = p
	}
	return names, nil
}

// CutNote is what a reader of results files says of a last line cut short
// by a writer that stopped while writing it, which it did (left out, cut
// off).
func CutNote(file string, line int, did string) string {
	return fmt.Sprintf("%s:%d: %s a last line cut short, not a whole record (its writer stopped while writing it)", file, line, did)
}

// Dedup keeps the first record of each run, its key in its arm (Arm), and
// counts the others.
func Dedup(recs []Record) ([]Record, int) {
	type run struct{ arm, key string }
	seen := make(map[run]bool, len(recs))
	out := recs[:0:0]
	dups := 0
	for _, r := range recs {
		if seen[run{r.Arm, r.Key}] {
			dups++
			continue
		}
		seen[run{r.Arm, r.Key}] = true
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
			return cmp.Compare(int64(a.Seed), int64(b.Seed)) // as signed, the order reports have always had
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
	return cmp.Compare(ia, ib)
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
