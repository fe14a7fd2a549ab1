package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"soko/bench"
	"soko/internal/jsonl"
)

// resultsFiles writes a bench results file of three runs and the results of
// soko optimize on it, and returns their paths.
func resultsFiles(t *testing.T, dir string) (benchFile, optimizeFile string) {
	t.Helper()
	benchFile, optimizeFile = filepath.Join(dir, "bench.jsonl"), filepath.Join(dir, "optimize.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--time", "5s", "--out", benchFile, "microban:1-3"); err != nil {
		t.Fatal(err, errOut)
	}
	if _, errOut, err := soko(t, "", "optimize", "--from", benchFile, "--out", optimizeFile, "--time", "5s", "--no-solution"); err != nil {
		t.Fatal(err, errOut)
	}
	return benchFile, optimizeFile
}

// copyFile copies from to a new file in dir named name, changed by edit.
func copyFile(t *testing.T, from, dir, name string, edit func(string) string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, name)
	if err := os.WriteFile(to, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

func same(s string) string { return s }

// Only soko's own files are resumed or trimmed: a file that is not of the
// kind an --out takes is refused before any work, naming its line, and
// left as it was.
func TestOutRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	benchFile, optimizeFile := resultsFiles(t, dir)
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("my precious notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	benchCopy := copyFile(t, benchFile, dir, "bench-copy.jsonl", same)
	optimizeCopy := copyFile(t, optimizeFile, dir, "optimize-copy.jsonl", same)
	for _, c := range []struct {
		name, file, want string
		args             []string
	}{
		// The break: one line without a newline was trimmed as cut by a kill.
		{"bench --out notes", notes, ":1: not a soko bench record", []string{"bench", "--algo", "astar", "--out", notes, "microban:1"}},
		{"bench --out an optimize file", optimizeCopy, ":1: a record of soko optimize, not of soko bench", []string{"bench", "--algo", "astar", "--out", optimizeCopy, "microban:1"}},
		// The break: optimize took any object with a level as its own and appended to a bench file.
		{"optimize --out a bench file", benchCopy, ":1: a record of soko bench, not a result of soko optimize", []string{"optimize", "--from", benchFile, "--out", benchCopy, "--time", "5s"}},
		{"optimize --out notes", notes, ":1: not a result of soko optimize", []string{"optimize", "--from", benchFile, "--out", notes, "--time", "5s"}},
		{"bench merge --out notes", notes, ":1: not a soko bench record", []string{"bench", "merge", benchFile, "--out", notes}},
	} {
		before, _ := os.ReadFile(c.file)
		_, _, err := soko(t, "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.file+c.want) {
			t.Errorf("%s: %v; want %s", c.name, err, c.file+c.want)
		}
		if !errors.As(err, new(usageError)) { // exit status 2, as every output of another kind
			t.Errorf("%s: %v is not a usage error", c.name, err)
		}
		if after, _ := os.ReadFile(c.file); !bytes.Equal(before, after) {
			t.Errorf("%s: the file was changed to %q", c.name, after)
		}
	}
}

// A complete last record without its newline counts everywhere (report and
// bench merge reported 3 runs as 2); a resumed bench or optimize ends that
// line before it appends.
func TestLastRecordWithoutNewline(t *testing.T) {
	dir := t.TempDir()
	benchFile, optimizeFile := resultsFiles(t, dir)
	cut := func(s string) string { return strings.TrimSuffix(s, "\n") }
	bench3 := copyFile(t, benchFile, dir, "bench3.jsonl", cut)
	optimize3 := copyFile(t, optimizeFile, dir, "optimize3.jsonl", cut)

	out, _, err := soko(t, "", "report", bench3)
	if err != nil || !strings.Contains(out, "3 runs:") {
		t.Errorf("report: %v\n%s", err, out)
	}
	_, errOut, err := soko(t, "", "bench", "merge", bench3)
	if err != nil || !strings.Contains(errOut, "3 runs from 1 file") {
		t.Errorf("bench merge: %v\n%s", err, errOut)
	}
	out, _, err = soko(t, "", "optimize", "--from", bench3, "--time", "5s", "--no-solution")
	if err != nil || !strings.Contains(out, "optimized 3 solutions") {
		t.Errorf("optimize --from: %v\n%s", err, out)
	}
	_, errOut, err = soko(t, "", "bench", "--algo", "astar", "--time", "5s", "--out", bench3, "microban:1-4")
	if err != nil || !strings.Contains(errOut, "3 done before, 1 run now") {
		t.Errorf("bench resumed: %v\n%s", err, errOut)
	}
	if recs, err := bench.ReadFiles(nil, bench3); err != nil || len(recs) != 4 || lines(bench3) != 4 {
		t.Errorf("after bench resumed: %d runs in %d lines, %v", len(recs), lines(bench3), err)
	}
	out, _, err = soko(t, "", "optimize", "--from", bench3, "--out", optimize3, "--time", "5s", "--no-solution")
	if err != nil || !strings.Contains(out, "optimized 1 solution") || !strings.Contains(out, "3 done before") || lines(optimize3) != 4 {
		t.Errorf("optimize resumed: %v, %d lines\n%s", err, lines(optimize3), out)
	}
}

// optimize --from reads .gz as report and bench merge do, and refuses a
// record whose level_hash is not the level its address names.
func TestOptimizeFromGzipAndLevelHash(t *testing.T) {
	dir := t.TempDir()
	benchFile, _ := resultsFiles(t, dir)
	zipped := filepath.Join(dir, "bench.jsonl.gz")
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	b, _ := os.ReadFile(benchFile)
	z.Write(b)
	z.Close()
	if err := os.WriteFile(zipped, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := soko(t, "", "optimize", "--from", zipped, "--time", "5s", "--no-solution")
	if err != nil || !strings.Contains(out, "optimized 3 solutions") {
		t.Errorf("optimize --from FILE.gz: %v\n%s", err, out)
	}

	recs, err := bench.ReadFiles(nil, benchFile)
	if err != nil {
		t.Fatal(err)
	}
	second := recs[1] // ReadFiles keeps the order of the lines
	other := recs[0].LevelHash
	moved := copyFile(t, benchFile, dir, "moved.jsonl", func(s string) string {
		lines := strings.SplitAfter(s, "\n")
		lines[1] = strings.Replace(lines[1], `"level_hash":"`+second.LevelHash+`"`, `"level_hash":"`+other+`"`, 1)
		return strings.Join(lines, "")
	})
	_, _, err = soko(t, "", "optimize", "--from", moved, "--time", "5s", "--no-solution")
	want := fmt.Sprintf("%s:2: level %q is not the level this record was run on: the record's level_hash is %s, the level's is %s", moved, second.Level, other, second.LevelHash)
	if err == nil || err.Error() != want {
		t.Errorf("a record of another level: %v\nwant %s", err, want)
	}

	// soko solve --json's records carry the hash too, so they are checked
	// the same way.
	solved, _, err := soko(t, "", "solve", "--json", "microban:2")
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(dir, "solve.jsonl")
	if err := os.WriteFile(renamed, []byte(strings.ReplaceAll(solved, `"level":"microban:2"`, `"level":"microban:3"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = soko(t, "", "optimize", "--from", renamed, "--time", "5s", "--no-solution")
	if err == nil || !strings.Contains(err.Error(), `level "microban:3" is not the level this record was run on`) {
		t.Errorf("a soko solve record moved to another level: %v", err)
	}
}

// Every reader of results files caps a line and names it: a 5 MB line gave
// "bufio.Scanner: token too long" with no line number in optimize, and was
// read whole by report and bench merge.
func TestResultsLineCap(t *testing.T) {
	dir := t.TempDir()
	benchFile, _ := resultsFiles(t, dir)
	long := copyFile(t, benchFile, dir, "long.jsonl", func(s string) string {
		first, _, _ := strings.Cut(s, "\n")
		return first + "\n" + strings.Repeat("x", 5<<20) + "\n"
	})
	want := fmt.Sprintf("%s:2: line longer than %d bytes", long, jsonl.MaxLine)
	for _, args := range [][]string{
		{"report", long},
		{"bench", "merge", long},
		{"bench", "--algo", "astar", "--out", long, "microban:1"},
		{"bench", "--dry-run", "--algo", "astar", "--out", long, "microban:1"},
		{"optimize", "--from", long, "--time", "5s"},
		{"optimize", "--from", benchFile, "--compare", long, "--time", "5s"},
	} {
		if _, _, err := soko(t, "", args...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want %s", args, err, want)
		}
	}
}

// A last line is left out as cut short only when it is the start of a
// record and nothing more, after whole records, and every reader says so
// on stderr: report, bench merge and optimize --from dropped it silently,
// and a whole record with the start of another after it on its line was
// dropped with it (report said 2 runs; a resumed bench cut the whole one
// off). A file of only `{` was taken over by bench --out.
func TestCutLastLine(t *testing.T) {
	dir := t.TempDir()
	benchFile, optimizeFile := resultsFiles(t, dir)
	cutShort := func(s string) string { return s + `{"key":"astar|micro` }
	spliced := func(s string) string { return strings.TrimSuffix(s, "\n") + `{"key":"astar|micro` }
	brace := func(string) string { return "{" }
	for _, c := range []struct {
		name   string
		from   string // the file edited
		edit   func(string) string
		args   []string // FILE is the edited file
		stderr string   // FILE is the edited file; with err == "", what stderr says
		err    string   // FILE is the edited file; the refusal, the file untouched
	}{
		{"report of a cut line", benchFile, cutShort, []string{"report", "FILE"}, "FILE:4: left out a last line cut short", ""},
		{"bench merge of a cut line", benchFile, cutShort, []string{"bench", "merge", "FILE"}, "bench merge: FILE:4: left out a last line cut short", ""},
		{"optimize --from a cut line", benchFile, cutShort, []string{"optimize", "--from", "FILE", "--time", "5s", "--no-solution"}, "optimize: FILE:4: left out a last line cut short", ""},
		{"bench --dry-run on a cut line", benchFile, cutShort, []string{"bench", "--dry-run", "--algo", "astar", "--time", "5s", "--out", "FILE", "microban:1-3"}, "FILE:4: left out a last line cut short", ""},
		{"bench resumed on a cut line", benchFile, cutShort, []string{"bench", "--algo", "astar", "--time", "5s", "--out", "FILE", "microban:1-3"}, "bench: FILE:4: cut off a last line cut short", ""},
		{"report of a spliced line", benchFile, spliced, []string{"report", "FILE"}, "", "FILE:3: a JSON value with more after it on one line, not one record"},
		{"bench merge of a spliced line", benchFile, spliced, []string{"bench", "merge", "FILE"}, "", "FILE:3: a JSON value with more after it on one line, not one record"},
		{"optimize --from a spliced line", benchFile, spliced, []string{"optimize", "--from", "FILE", "--time", "5s"}, "", "FILE:3: a JSON value with more after it on one line, not one record"},
		{"bench resumed on a spliced line", benchFile, spliced, []string{"bench", "--algo", "astar", "--time", "5s", "--out", "FILE", "microban:1-3"}, "", "FILE:3: a JSON value with more after it on one line, not one record"},
		{"bench --out a brace", benchFile, brace, []string{"bench", "--algo", "astar", "--out", "FILE", "microban:1"}, "", "FILE:1: a record cut short with no whole record before it"},
		{"optimize --out a brace", benchFile, brace, []string{"optimize", "--from", benchFile, "--out", "FILE", "--time", "5s"}, "", "FILE:1: a record cut short with no whole record before it"},
		{"optimize --out on a spliced line", optimizeFile, spliced, []string{"optimize", "--from", benchFile, "--out", "FILE", "--time", "5s"}, "", "FILE:3: a JSON value with more after it on one line, not one record"},
	} {
		file := copyFile(t, c.from, dir, strings.ReplaceAll(c.name, " ", "-")+".jsonl", c.edit)
		before, _ := os.ReadFile(file)
		args := make([]string, len(c.args))
		for i, a := range c.args {
			args[i] = strings.ReplaceAll(a, "FILE", file)
		}
		_, errOut, err := soko(t, "", args...)
		if c.err != "" {
			if want := strings.ReplaceAll(c.err, "FILE", file); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v; want %s", c.name, err, want)
			}
			if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
				t.Errorf("%s: the file was changed to %q", c.name, after)
			}
			continue
		}
		if want := strings.ReplaceAll(c.stderr, "FILE", file); err != nil || !strings.Contains(errOut, want) {
			t.Errorf("%s: %v; stderr %q, want %s", c.name, err, errOut, want)
		}
	}
}

// A results file with a UTF-8 byte order mark is read as level files are
// (it gave "invalid character 'ï'"); a gzip file where plain JSON lines
// are wanted is named so (it gave "invalid character '\x1f'").
func TestResultsByteOrderMarkAndGzip(t *testing.T) {
	dir := t.TempDir()
	benchFile, optimizeFile := resultsFiles(t, dir)
	withBOM := func(s string) string { return "\xef\xbb\xbf" + s }
	gzipped := func(s string) string {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		z.Write([]byte(s))
		z.Close()
		return buf.String()
	}
	bom := copyFile(t, benchFile, dir, "bom.jsonl", withBOM)
	optimizeBOM := copyFile(t, optimizeFile, dir, "optimize-bom.jsonl", withBOM)
	for _, c := range []struct {
		args []string
		out  string // what stdout or stderr says
	}{
		{[]string{"report", bom}, "3 runs:"},
		{[]string{"bench", "merge", bom}, "3 runs from 1 file"},
		{[]string{"optimize", "--from", bom, "--time", "5s", "--no-solution"}, "optimized 3 solutions"},
		{[]string{"optimize", "--from", benchFile, "--compare", bom, "--time", "5s", "--no-solution"}, "optimized 3 solutions"},
		{[]string{"bench", "--algo", "astar", "--time", "5s", "--out", bom, "microban:1-3"}, "3 done before, 0 run now"},
		{[]string{"optimize", "--from", benchFile, "--out", optimizeBOM, "--time", "5s", "--no-solution"}, "3 done before"},
	} {
		out, errOut, err := soko(t, "", c.args...)
		if err != nil || !strings.Contains(out+errOut, c.out) {
			t.Errorf("%q: %v; want %s in\n%s%s", c.args, err, c.out, out, errOut)
		}
	}

	packed := copyFile(t, benchFile, dir, "packed.jsonl", gzipped)
	optimizePacked := copyFile(t, optimizeFile, dir, "optimize-packed.jsonl", gzipped)
	for _, c := range []struct {
		args []string
		file string
		want string
	}{
		{[]string{"bench", "--algo", "astar", "--out", packed, "microban:1"}, packed, packed + " is gzip-compressed: bench --out appends plain JSON lines; gunzip it first"},
		{[]string{"optimize", "--from", benchFile, "--out", optimizePacked, "--time", "5s"}, optimizePacked, optimizePacked + " is gzip-compressed: optimize --out appends plain JSON lines; gunzip it first"},
		{[]string{"report", packed}, packed, packed + ": gzip-compressed, not plain JSON lines: only a name ending in .gz is read through gzip"},
		{[]string{"optimize", "--from", packed, "--time", "5s"}, packed, packed + ": gzip-compressed, not plain JSON lines"},
	} {
		before, _ := os.ReadFile(c.file)
		if _, _, err := soko(t, "", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %s", c.args, err, c.want)
		}
		if after, _ := os.ReadFile(c.file); !bytes.Equal(before, after) {
			t.Errorf("%q: the file was changed", c.args)
		}
	}
}

// optimize --from with no record to optimize fails (exit 1) and says why,
// as optimize FILE.sok without a solution does: a file of something else,
// optimize's own results, a bench run with --no-solution and an empty file
// all said "optimized 0 solutions" and exited 0, and `[1,2]` printed a Go
// struct type. A record without level_hash is optimized, with a note.
func TestOptimizeFromNothingToOptimize(t *testing.T) {
	dir := t.TempDir()
	benchFile, optimizeFile := resultsFiles(t, dir)
	noSolution := filepath.Join(dir, "nosolution.jsonl")
	if _, errOut, err := soko(t, "", "bench", "--algo", "astar", "--time", "5s", "--no-solution", "--out", noSolution, "microban:1-2"); err != nil {
		t.Fatal(err, errOut)
	}
	firstRecord := func(s string) string { first, _, _ := strings.Cut(s, "\n"); return first + "\n" }
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fifo := filepath.Join(dir, "fifo.xsb") // a record's level read again never waits on a FIFO
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{write("fifo.jsonl", `{"level":"`+fifo+`:1","status":"solved","solution":"R"}`+"\n"), "level \"" + fifo + ":1\": " + fifo + " is not a regular file"},
		{write("hello.jsonl", `{"hello":1}`+"\n"), "hello.jsonl:1: not a record of soko bench or soko solve --json: it has no level"},
		{write("array.jsonl", "[1,2]\n"), "array.jsonl:1: not a record: a JSON array, where a record of soko bench or soko solve --json is an object"},
		{write("number.jsonl", `{"level":5}`+"\n"), `number.jsonl:1: not a record: its "level" is a JSON number`},
		{copyFile(t, benchFile, dir, "second.jsonl", func(s string) string { return firstRecord(s) + "[1,2]\n" }), "second.jsonl:2: not a record: a JSON array"},
		{optimizeFile, "optimize.jsonl:1: a result of soko optimize, not a record of soko bench or soko solve --json"},
		{write("empty.jsonl", ""), "empty.jsonl holds no records"},
		{noSolution, "nosolution.jsonl has no record with a solution to optimize: of 2 records, 2 solved without the solution recorded (written with --no-solution)"},
		{write("unsolved.jsonl", `{"level":"microban:1","status":"time limit"}`+"\n"+`{"level":"microban:2","status":"solved","verified":false,"solution":"r"}`+"\n"),
			"unsolved.jsonl has no record with a solution to optimize: of 2 records, 1 solved with a solution the verifier refused, 1 not solved"},
	}
	for _, c := range cases {
		out, _, err := soko(t, "", "optimize", "--from", c.path, "--time", "5s", "--no-solution")
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.As(err, new(usageError)) || strings.Contains(err.Error(), "struct") {
			t.Errorf("%s: %v, want a failure (exit 1) saying %s\n%s", filepath.Base(c.path), err, c.want, out)
		}
	}

	// A record without level_hash, as older files hold, is optimized for
	// the level its address names, and the run says it was not checked.
	old := copyFile(t, benchFile, dir, "old.jsonl", func(s string) string {
		return regexp.MustCompile(`,"level_hash":"[^"]*"`).ReplaceAllString(firstRecord(s), "")
	})
	out, errOut, err := soko(t, "", "optimize", "--from", old, "--time", "5s", "--no-solution")
	if err != nil || !strings.Contains(out, "optimized 1 solution") || !strings.Contains(errOut, "1 record has no level_hash") {
		t.Errorf("a record without level_hash: %v\n%s%s", err, out, errOut)
	}
}
