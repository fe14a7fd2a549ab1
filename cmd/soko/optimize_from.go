package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"soko/bench"
	"soko/internal/ctxio"
	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/level"
	"soko/levels"
)

// optimizeJob is one solution to optimize.
type optimizeJob struct {
	level  *level.Level
	lurd   string
	from   string // where lurd came from, for the errors of its parse (readSolution)
	solver string
	run    string // the key of the soko bench record it came from, "" for others
	given  string // the hash of a LEVEL SOLUTION's solution (givenHash), "" for --from's
}

// key names the job in an --out file (doneKey).
func (j optimizeJob) key() string { return doneKey(levelID(j.level), j.solver, j.run, j.given) }

// doneKey names a result in an --out file, so that a run again skips it:
// the key of the soko bench record its solution came from (one per level,
// solver, budget and seed); for a solution given as LEVEL SOLUTION, its
// level and the hash of its moves; else its level and solver.
func doneKey(level, solver, run, given string) string {
	switch {
	case run != "":
		return run
	case given != "":
		return level + "|" + solver + "|" + given
	}
	return level + "|" + solver
}

// givenHash is the hash of a solution's moves as LURD without blanks or
// repeat counts (its text, when it does not parse): the same moves,
// however written, are the same solution.
func givenHash(text string) string {
	if moves, err := level.ParseLURD(text); err == nil {
		text = level.FormatLURD(moves)
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// maxFromFile is the largest results file --from reads, as for level files.
const maxFromFile = level.MaxInput

// eachFrom reads the solved records of a results file one at a time and
// gives each to yield as it is read: 'soko bench' records (status solved
// and verified) or 'soko solve --json' ones (not those of the phase
// "found": the final record of their level follows). The file is read as it goes
// (it may be a pipe), up to maxFromFile bytes, and reading stops when ctx
// ends. A last line cut short after whole records (jsonl.Records) is left
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
		if e := inputExists("optimize", "results file", path); e != nil {
			return e
		}
		return err
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
		if r.Phase != "" {
			return nil // the solution found, before the optimizer: the level's final record comes after it
		}
		n.records++
		switch {
		case r.Status != "solved":
			n.unsolved++
			return nil
		case r.Solution == "" && r.Moves == 0: // solved at its start: no moves to shorten
			n.atStart++
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
		from := fmt.Sprintf("the solution of %s line %d", path, line)
		if yieldErr = yield(optimizeJob{level: l.level, lurd: r.Solution, from: from, solver: r.solverName(), run: r.Key}); yieldErr != nil {
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
	Phase     string `json:"phase"` // soko solve --json's "found": a solution its level's final record follows
	Level     string `json:"level"`
	LevelHash string `json:"level_hash"`
	Status    string `json:"status"`
	Verified  *bool  `json:"verified"`
	Solver    string `json:"solver"` // soko bench's
	Key       string `json:"key"`    // soko bench's: the run's key
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
	atStart    int // solved at the level's start, by no move
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
		if n.atStart > 0 {
			why = append(why, fmt.Sprintf("%d solved at its start, by no move", n.atStart))
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
