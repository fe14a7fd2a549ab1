package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"soko/internal/english"
	"soko/internal/jsonl"
	"soko/optimize"
)

// compareFiles is the repeatable --compare flag of soko optimize.
type compareFiles []string

func (c *compareFiles) String() string { return strings.Join(*c, ",") }
func (c *compareFiles) Set(s string) error {
	*c = append(*c, s)
	return nil
}

// lengthsBy holds other solvers' solution lengths: solver name → level →
// pushes and moves of a solved level.
type lengthsBy map[string]map[string]optimize.Score

// readLengths reads the solved levels of a results file (gzipped when its
// name ends in .gz): JSONL from soko bench or soko solve --json (one solver per "solver" or "algo" field), or
// a table of tab-separated columns with a "level" column and, per solver
// NAME, NAME_status, NAME_pushes and NAME_moves.
func readLengths(path string, into lengthsBy) error {
	f, err := jsonl.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return usagef("optimize: --compare file %s does not exist", path)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	lines := jsonl.NewReader(f, path)
	var header []string
	csvTable := false // comma-separated, as the header says; else tab-separated
	added := 0
	add := func(name, lvl string, s optimize.Score) {
		if into[name] == nil {
			into[name] = map[string]optimize.Score{}
		}
		// Several runs of a solver on a level: its shortest solution.
		if old, ok := into[name][lvl]; !ok || s.Pushes < old.Pushes || s.Pushes == old.Pushes && s.Moves < old.Moves {
			into[name][lvl] = s
		}
		added++
	}
	for {
		b, _, err := lines.Line()
		if err == io.EOF && added == 0 {
			return fmt.Errorf("optimize: --compare file %s holds no solved level: want the records of soko bench or soko solve --json, or a table (tab- or comma-separated) with a level column and NAME_status, NAME_pushes and NAME_moves columns", path)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		line, text := lines.N(), strings.TrimSpace(string(b))
		switch {
		case text == "":
		case strings.HasPrefix(text, "{"):
			var r runLine
			if err := json.Unmarshal([]byte(text), &r); err != nil {
				return fmt.Errorf("%s:%d: %v", path, line, err)
			}
			switch {
			case jsonl.KindOf([]byte(text)) == jsonl.Optimize:
				return fmt.Errorf("%s:%d: a result of soko optimize, not a record of soko bench or soko solve --json", path, line)
			case r.Level == "" || r.Status == "":
				return fmt.Errorf("%s:%d: not a record of soko bench or soko solve --json: it has no level or no status", path, line)
			}
			if r.Status == "solved" && r.Phase == "" && (r.Verified == nil || *r.Verified) {
				add(r.solverName(), r.Level, optimize.Score{Pushes: r.Pushes, Moves: r.Moves})
			}
		case header == nil:
			csvTable = !strings.Contains(text, "\t") && strings.Contains(text, ",")
			if header, err = cells(text, csvTable); err != nil {
				return fmt.Errorf("%s:%d: %v", path, line, err)
			}
		default:
			row, err := cells(text, csvTable)
			if err == nil {
				err = tableRow(header, row, add)
			}
			if err != nil {
				return fmt.Errorf("%s:%d: %v", path, line, err)
			}
		}
	}
}

// cells splits a line of a table: at tabs, or as a CSV record.
func cells(text string, csvTable bool) ([]string, error) {
	if !csvTable {
		return strings.Split(text, "\t"), nil
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	return r.Read()
}

func tableRow(header, cells []string, add func(name, lvl string, s optimize.Score)) error {
	col := map[string]string{}
	for i, h := range header {
		if i < len(cells) {
			col[h] = cells[i]
		}
	}
	for _, h := range header {
		name, ok := strings.CutSuffix(h, "_status")
		if !ok || col[h] != "solved" {
			continue
		}
		p, err1 := strconv.Atoi(col[name+"_pushes"])
		m, err2 := strconv.Atoi(col[name+"_moves"])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%s: pushes %q, moves %q: want whole numbers", name, col[name+"_pushes"], col[name+"_moves"])
		}
		add(name, col["level"], optimize.Score{Pushes: p, Moves: m})
	}
	return nil
}

// printComparisons writes, for each solver in others, the totals over the
// levels both it and the optimizer have: theirs beside ours, and on how
// many of them ours has at most their pushes.
func printComparisons(w io.Writer, ours map[string]optimize.Score, others lengthsBy) {
	names := make([]string, 0, len(others))
	for n := range others {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		var mine, theirs optimize.Score
		levels, atMost := 0, 0
		for lvl, s := range ours {
			t, ok := others[name][lvl]
			if !ok {
				continue
			}
			levels++
			mine.Pushes += s.Pushes
			mine.Moves += s.Moves
			theirs.Pushes += t.Pushes
			theirs.Moves += t.Moves
			if s.Pushes <= t.Pushes {
				atMost++
			}
		}
		fmt.Fprintf(w, "  beside %s on the %s both solve: pushes %d (%s %d), moves %d (%s %d); at most %s pushes on %d (%.1f%%)\n",
			name, english.Count(levels, "level", "levels"), mine.Pushes, name, theirs.Pushes, mine.Moves, name, theirs.Moves, name+"'s", atMost, percent(atMost, levels))
	}
}

func percent(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
