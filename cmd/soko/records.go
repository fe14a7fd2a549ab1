package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"soko/bench"
	"soko/levels"
)

// earlierLevels adds to byID the levels of the runs in recs that this
// bench was not given, found again by their address and kept when the
// board is the one recorded (level_hash), so that a resumed bench --sok
// can put every run of its results file in the .sok. It returns how many
// runs' levels it could not find.
func earlierLevels(ctx context.Context, byID map[string]levels.Entry, recs []bench.Record) (missing int) {
	tried := map[string]bool{}
	for _, rec := range recs {
		if _, ok := byID[rec.Level]; !ok && !tried[rec.Level] && rec.LevelHash != "" {
			tried[rec.Level] = true
			if e, ok := findLevel(ctx, rec.Level); ok && bench.LevelHash(e.Level) == rec.LevelHash {
				byID[rec.Level] = e
			}
		}
		if _, ok := byID[rec.Level]; !ok {
			missing++
		}
	}
	return missing
}

// findLevel resolves the address of one level, when it names a level of
// an embedded collection or of a regular file (never standard input, nor
// a FIFO that would wait for a writer).
func findLevel(ctx context.Context, id string) (levels.Entry, bool) {
	if recordedFile(id) != nil {
		return levels.Entry{}, false
	}
	es, err := levels.ResolveEntries(ctx, []string{id}, nil)
	if err != nil || len(es) != 1 || es[0].Level == nil {
		return levels.Entry{}, false
	}
	return es[0], true
}

// recordedFile refuses the address a record gives when it names standard
// input or a file that is not regular (a FIFO would wait for a writer):
// a record's level is read again only from an embedded collection or a
// regular file.
func recordedFile(id string) error {
	if levels.Stdin(id) {
		return errors.New("standard input is not read again for a record")
	}
	if f, ok := levels.File(id); ok {
		if st, err := os.Stat(f); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", f)
		}
	}
	return nil
}

// inputExists refuses an input file that does not exist as a usage error
// (exit status 2), as a level spec or a solution file that names no file
// is: "results file x.jsonl does not exist". flag names the flag that gave
// it, or is "" for an argument. Other errors of the file are left to its
// reader, which names them.
func inputExists(flag, what, path string) error {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if path == "-" && flag != "" {
		return usagef("%s: %s - (standard input) is not taken here: give a file", flag, what)
	}
	if path == "-" {
		return usagef("%s - (standard input) is not taken here: give a file", what)
	}
	if flag != "" {
		return usagef("%s: %s %s does not exist", flag, what, path)
	}
	return usagef("%s %s does not exist", what, path)
}
