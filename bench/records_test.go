package bench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"soko/internal/jsonl"
)

// testLine is a results line of a run on microban:i.
func testLine(t *testing.T, i int) string {
	t.Helper()
	r := Record{Key: fmt.Sprintf("astar|microban:%d|h|t=1s|1", i), Solver: "astar", Level: fmt.Sprintf("microban:%d", i), LevelHash: "h", Status: "solved", Verified: true}
	b, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A results file is resumed only when it holds soko bench records (or
// nothing): anything else is refused, untouched, naming the file and line.
// A last record without its newline is a run, and the next is written on a
// line of its own; a last record cut short is cut off.
func TestOpenResultsRecognisesItsFiles(t *testing.T) {
	a, b := testLine(t, 1), testLine(t, 2)
	optimized := `{"level":"microban:1","solver":"astar","metric":"pushes","before":{"pushes":8,"moves":33},"after":{"pushes":8,"moves":33},"complete":true,"time_s":0,"searches":1,"expanded":1}`
	solved := `{"level":"microban:1","algo":"astar","status":"solved","pushes":8,"moves":33,"time_s":0,"expanded":1,"generated":1,"stored":1,"bytes":1,"seed":1}`
	for _, c := range []struct {
		name, body string
		runs       int    // the runs resumed
		after      string // the file once opened; "" for the body unchanged
		err        string // the refusal
	}{
		{"empty", "", 0, "", ""},
		{"blank lines", "\n\n", 0, "", ""},
		{"records", a + "\n" + b + "\n", 2, "", ""},
		{"a last record without its newline", a + "\n" + b, 2, a + "\n" + b + "\n", ""},
		{"a last record cut by a kill", a + "\n" + b[:30], 1, a + "\n", ""},
		{"a bracket after a record", a + "\n{", 1, a + "\n", ""},
		{"a byte order mark", "\xef\xbb\xbf" + a + "\n", 1, "", ""},
		// A file without a whole record is soko's only when empty: `{`
		// alone was cut off and the file taken over.
		{"only a record cut short", b[:5], 0, "", "notes:1: a record cut short with no whole record before it"},
		{"only a bracket", "{", 0, "", "notes:1: a record cut short with no whole record before it"},
		// A whole record with the start of another on its line was cut
		// off with it.
		{"a record and a cut one on one line", a + "\n" + b + b[:30], 0, "", "notes:2: a JSON value with more after it on one line, not one record"},
		{"a gzip file", gzipped(a + "\n"), 0, "", "notes is gzip-compressed: bench --out appends plain JSON lines; gunzip it first"},
		// The break: notes.txt, one line without a newline, was emptied.
		{"notes without a newline", "my precious notes", 0, "", "notes:1: not a soko bench record"},
		{"notes", "my precious notes\n", 0, "", "notes:1: not a soko bench record"},
		{"notes after records", a + "\nmy precious notes", 0, "", "notes:2: not a soko bench record"},
		{"a JSON object", `{"level":"microban:1"}` + "\n", 0, "", `notes:1: not a soko bench record: want "key"`},
		{"a key alone", `{"key":"x"}`, 0, "", `notes:1: not a soko bench record: want "key"`},
		{"results of soko optimize", optimized + "\n", 0, "", "notes:1: a record of soko optimize, not of soko bench"},
		{"results of soko solve --json", solved + "\n", 0, "", "notes:1: a record of soko solve --json, not of soko bench"},
		{"a line over the cap", a + "\n" + strings.Repeat("x", jsonl.MaxLine+1), 0, "", fmt.Sprintf("notes:2: line longer than %d bytes", jsonl.MaxLine)},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "notes")
			if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := OpenResults(path)
			got, _ := os.ReadFile(path)
			if c.err != "" {
				if err == nil {
					res.Close()
				}
				if err == nil || !strings.Contains(err.Error(), path[:len(path)-len("notes")]+c.err) {
					t.Errorf("got %v, want an error with %s", err, c.err)
				}
				if string(got) != c.body {
					t.Errorf("a refused file was changed to %.80q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			want := c.after
			if want == "" {
				want = c.body
			}
			if res.Len() != c.runs || string(got) != want {
				t.Fatalf("%d runs, file %q; want %d runs, %q", res.Len(), got, c.runs, want)
			}
			next := Record{Key: "next", Solver: "bfs", Level: "microban:3", Status: "solved"}
			if err := res.Write(next); err != nil {
				t.Fatal(err)
			}
			recs := readFile(t, path)
			if len(recs) != c.runs+1 || recs[len(recs)-1].Key != "next" {
				t.Errorf("after a write: %d records, the last %+v", len(recs), recs[len(recs)-1])
			}
		})
	}
}

// gzipped is s compressed with gzip.
func gzipped(s string) string {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write([]byte(s))
	z.Close()
	return buf.String()
}

func readFile(t *testing.T, path string) []Record {
	t.Helper()
	recs, err := ReadFiles(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// report and bench merge count a last record without its newline (3 runs
// were reported as 2) and leave out one cut short, saying so with its file
// and line (they said nothing); a whole record with the start of another
// after it on its line is refused, naming the line (it was left out with
// the cut one).
func TestReadLastRecordWithoutNewline(t *testing.T) {
	lines := []string{testLine(t, 1), testLine(t, 2), testLine(t, 3)}
	dir := t.TempDir()
	for _, c := range []struct {
		name, body string
		runs       int
		note, err  string // PATH is the file
	}{
		{"no newline", strings.Join(lines, "\n"), 3, "", ""},
		{"cut", strings.Join(lines, "\n") + "\n" + testLine(t, 4)[:40], 3, "PATH:4: left out a last line cut short", ""},
		{"spliced", strings.Join(lines, "\n") + testLine(t, 4)[:40], 0, "", "PATH:3: a JSON value with more after it on one line, not one record"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".jsonl")
		if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		note, wantErr := strings.ReplaceAll(c.note, "PATH", path), strings.ReplaceAll(c.err, "PATH", path)
		var log, mergeLog, merged bytes.Buffer
		recs, err := ReadFiles(&log, path)
		runs, _, mergeErr := Merge(&merged, &mergeLog, path)
		if wantErr != "" {
			if err == nil || err.Error() != wantErr || mergeErr == nil || mergeErr.Error() != wantErr {
				t.Errorf("%s: ReadFiles: %v\nMerge: %v\nwant %s", c.name, err, mergeErr, wantErr)
			}
			continue
		}
		if err != nil || len(recs) != c.runs || !strings.Contains(log.String(), note) || (note == "") != (log.Len() == 0) {
			t.Errorf("%s: ReadFiles: %d runs, %v, said %q; want %d runs, %q", c.name, len(recs), err, log.String(), c.runs, note)
		}
		if mergeErr != nil || runs != c.runs || strings.Count(merged.String(), "\n") != c.runs || !strings.Contains(mergeLog.String(), note) || (note == "") != (mergeLog.Len() == 0) {
			t.Errorf("%s: Merge: %d runs, %v, said %q:\n%s", c.name, runs, mergeErr, mergeLog.String(), merged.String())
		}
	}
}

// The break of report and bench merge: a small .gz holding one huge line
// was read whole. Now the line is refused at the cap, naming the file and
// line, without reading the rest (measured in bytes allocated, not RSS).
func TestReadHugeLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.jsonl.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	chunk := bytes.Repeat([]byte{'x'}, 1<<20)
	for i := 0; i < 100; i++ { // one line of 100 MiB
		z.Write(chunk)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	want := fmt.Sprintf("%s:1: line longer than %d bytes", path, jsonl.MaxLine)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadFiles(nil, path)
	_, _, mergeErr := Merge(&bytes.Buffer{}, nil, path)
	runtime.ReadMemStats(&after)
	if err == nil || err.Error() != want || mergeErr == nil || mergeErr.Error() != want {
		t.Fatalf("ReadFiles: %v\nMerge: %v\nwant %s", err, mergeErr, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*jsonl.MaxLine {
		t.Errorf("two reads allocated %d MiB, more than 4 times the cap of %d MiB each", alloc>>20, jsonl.MaxLine>>20)
	}
}

// A record with values soko never writes (an unknown status, a count or a
// time below 0) is refused, naming its line, rather than reported.
func TestRecordValuesChecked(t *testing.T) {
	good := Record{Key: "k", Solver: "astar", Level: "microban:1", Status: "solved", Pushes: 8, Moves: 33, WallS: 0.1}
	for name, edit := range map[string]func(*Record){
		"status": func(r *Record) { r.Status = "bogus" },
		"pushes": func(r *Record) { r.Pushes = -8 },
		"wall_s": func(r *Record) { r.WallS = -1 },
	} {
		r := good
		edit(&r)
		b, _ := json.Marshal(r)
		if _, err := ReadRecords(bytes.NewReader(b), "x.jsonl"); err == nil || !strings.Contains(err.Error(), "x.jsonl:1: not a soko bench record") {
			t.Errorf("%s: %v", name, err)
		}
	}
	b, _ := json.Marshal(good)
	if _, err := ReadRecords(bytes.NewReader(b), "x.jsonl"); err != nil {
		t.Errorf("a good record refused: %v", err)
	}
}
