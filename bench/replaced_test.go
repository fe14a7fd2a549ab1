//go:build unix

package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"soko/internal/outfile"
)

// A results file replaced while a bench appends to it (a file renamed
// over it by an editor, sed -i, cp and mv) loses nothing silently: the
// writer follows the path, puts in the new file the records it wrote to
// the old one after the copy was taken, and says so; where the new file
// cannot be taken (removed, held by another writer, not results) the write
// fails with the runs that went only to the old file counted.
func TestResultsFollowReplacedFile(t *testing.T) {
	rec := func(i int) Record {
		return Record{Key: fmt.Sprintf("astar|microban:%d|h|t=1s|1", i), Solver: "astar", Level: fmt.Sprintf("microban:%d", i), LevelHash: "h", Status: "solved", Verified: true}
	}
	for _, c := range []struct {
		name    string
		replace func(t *testing.T, path, copied string) func() // returns what undoes a hold
		lost    int                                            // -1: followed
		removed bool
	}{
		{"sed -i", func(t *testing.T, path, copied string) func() {
			renameOver(t, path, copied)
			return func() {}
		}, -1, false},
		{"removed", func(t *testing.T, path, _ string) func() {
			os.Remove(path)
			return func() {}
		}, 2, true},
		{"held by another writer", func(t *testing.T, path, copied string) func() {
			renameOver(t, path, copied)
			f, err := outfile.OpenAppend(path) // another open file: its flock conflicts
			if err != nil {
				t.Fatal(err)
			}
			return func() { f.Close() }
		}, 1, false},
		{"not results", func(t *testing.T, path, _ string) func() {
			renameOver(t, path, "my notes\n")
			return func() {}
		}, 2, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.jsonl")
			res, err := OpenResults(path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			var notes []string
			res.Notify = func(s string) { notes = append(notes, s) }
			if err := res.Write(rec(1)); err != nil {
				t.Fatal(err)
			}
			copied := readText(t, path)               // sed reads the file ...
			if err := res.Write(rec(2)); err != nil { // ... a record goes to the old one ...
				t.Fatal(err)
			}
			undo := c.replace(t, path, copied) // ... and sed renames its copy over it
			defer undo()
			err = res.Write(rec(3))
			if c.lost < 0 {
				if err != nil {
					t.Fatal(err)
				}
				if err := res.Write(rec(4)); err != nil {
					t.Fatal(err)
				}
				renameOver(t, path, readText(t, path)) // after the last write
				if err := res.Settle(); err != nil {
					t.Fatal(err)
				}
				got := readText(t, path)
				for i := 1; i <= 4; i++ {
					if strings.Count(got, rec(i).Key) != 1 {
						t.Errorf("run %d is not once in the file:\n%s", i, got)
					}
				}
				if len(notes) != 2 || !strings.Contains(notes[0], "was replaced") || !strings.Contains(notes[0], "the 1 record written by this run that it lacked") {
					t.Errorf("notes: %q", notes)
				}
				return
			}
			var re *ReplacedError
			if !errors.As(err, &re) || re.Lost != c.lost || re.Removed != c.removed {
				t.Fatalf("write after the file was %s: %v (%+v), want %d runs lost", c.name, err, re, c.lost)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), fmt.Sprintf("%d runs written by this run went only to the old file", c.lost)) &&
				!strings.Contains(err.Error(), "1 run written by this run went only to the old file") {
				t.Errorf("message: %v", err)
			}
			if c.name == "not results" && readText(t, path) != "my notes\n" {
				t.Errorf("the other file was changed: %q", readText(t, path))
			}
		})
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// renameOver puts a new file holding text at path by a rename, as sed -i
// and editors do.
func renameOver(t *testing.T, path, text string) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}
