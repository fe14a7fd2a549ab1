package jsonl

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// Lines come back without their newline, numbered, with the offset past
// each; a last line without its newline comes back too, so marked.
func TestReaderLines(t *testing.T) {
	long := strings.Repeat("y", 200<<10) // longer than the bufio buffer, shorter than the cap
	in := "a\n\n" + long + "\nlast"
	r := NewReader(strings.NewReader(in), "f")
	want := []struct {
		text    string
		newline bool
		off     int64
	}{{"a", true, 2}, {"", true, 3}, {long, true, int64(4 + len(long))}, {"last", false, int64(len(in))}}
	for i, w := range want {
		line, nl, err := r.Line()
		if err != nil || string(line) != w.text || nl != w.newline || r.N() != i+1 || r.Offset() != w.off {
			t.Fatalf("line %d: %.20q %v %v, n %d, offset %d; want %.20q %v, offset %d", i+1, line, nl, err, r.N(), r.Offset(), w.text, w.newline, w.off)
		}
	}
	if _, _, err := r.Line(); err != io.EOF {
		t.Fatalf("after the last line: %v", err)
	}
}

// A line at the cap is read, one byte more is an error naming the file and
// line; a read error names the line being read.
func TestReaderCap(t *testing.T) {
	r := NewReader(strings.NewReader("ok\n"+strings.Repeat("x", MaxLine)+"\n"+strings.Repeat("x", MaxLine+1)+"\n"), "big.jsonl")
	for i := 0; i < 2; i++ {
		if _, _, err := r.Line(); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	want := fmt.Sprintf("big.jsonl:3: line longer than %d bytes", MaxLine)
	if _, _, err := r.Line(); err == nil || err.Error() != want {
		t.Fatalf("a line of MaxLine+1 bytes: %v; want %s", err, want)
	}
	broken := errors.New("disk on fire")
	r = NewReader(io.MultiReader(strings.NewReader("a\nb"), errReader{broken}), "f")
	r.Line()
	if _, _, err := r.Line(); !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "f:2: ") {
		t.Fatalf("a read error: %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// The break of report and bench merge: a small gzip holding one line of a
// GiB was read whole (2.1 GB). The line is refused after the cap, and the
// reading allocates a few times the cap, not the line: the gzip stream is
// made as it is read, so that the test holds neither.
func TestReaderHugeGzipLine(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		z, _ := gzip.NewWriterLevel(pw, gzip.BestSpeed)
		chunk := bytes.Repeat([]byte{'x'}, 1<<20)
		for i := 0; i < 1<<10; i++ { // 1 GiB, or until the reader stops
			if _, err := z.Write(chunk); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(z.Close())
	}()
	defer pr.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	zr, err := Unzip(pr, "huge.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = NewReader(zr, "huge.jsonl.gz").Line()
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf("huge.jsonl.gz:1: line longer than %d bytes", MaxLine)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*MaxLine {
		t.Errorf("reading allocated %d MiB, more than 4 times the cap of %d MiB", alloc>>20, MaxLine>>20)
	}
}

// Records counts a last record without its newline, leaves out a last
// record cut short when it begins as the records do, and refuses anything
// else, naming the line.
func TestRecords(t *testing.T) {
	isRecord := func(line []byte, _ int) error {
		if !bytes.HasPrefix(line, []byte(`{"k":"`)) || !bytes.HasSuffix(line, []byte(`"}`)) || !json.Valid(line) {
			return errors.New("not a record")
		}
		return nil
	}
	rec := `{"k":"a"}`
	for _, c := range []struct {
		name, in string
		want     Tail
		records  int
		err      string
	}{
		{"empty", "", Tail{}, 0, ""},
		{"blank lines", "\n \n", Tail{Keep: 3}, 0, ""},
		{"records", rec + "\n" + rec + "\n", Tail{Keep: 20}, 2, ""},
		{"a last record without its newline", rec + "\n" + rec, Tail{Keep: 19, Newline: true}, 2, ""},
		{"a cut record", rec + "\n" + `{"k":"b`, Tail{Keep: 10, Cut: 2}, 1, ""},
		{"a cut record of a few bytes", rec + "\n" + `{"`, Tail{Keep: 10, Cut: 2}, 1, ""},
		{"a bracket after a record", rec + "\n{", Tail{Keep: 10, Cut: 2}, 1, ""},
		{"a record with a byte order mark", "\xef\xbb\xbf" + rec + "\n" + rec, Tail{Keep: 22, Newline: true}, 2, ""},
		// A file without a whole record is taken for one of records only
		// when it is empty: `{` alone was trimmed and taken over.
		{"only a cut record", `{"k":"b`, Tail{}, 0, "f:1: a record cut short with no whole record before it: not taken for a file of records"},
		{"only a bracket", "{", Tail{}, 0, "f:1: a record cut short with no whole record before it: not taken for a file of records"},
		{"a bracket after blank lines", "\n \n{", Tail{}, 0, "f:3: a record cut short with no whole record before it: not taken for a file of records"},
		// A whole record and the start of another on the last line: the
		// whole one was counted out silently, and bench cut it off.
		{"a record and a cut one on one line", rec + "\n" + rec + `{"k":"b`, Tail{}, 1, "f:2: a JSON value with more after it on one line, not one record"},
		{"two records on one line", rec + rec + "\n", Tail{}, 0, "f:1: a JSON value with more after it on one line, not one record"},
		{"a record and notes on one line", rec + " my notes", Tail{}, 0, "f:1: a JSON value with more after it on one line, not one record"},
		{"a cut record that is not JSON", rec + "\n" + `{"k":"b"x`, Tail{}, 1, "f:2: not a record"},
		{"gzip data", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", Tail{}, 0, "f: gzip-compressed, not plain JSON lines: only a name ending in .gz is read through gzip"},
		{"notes without a newline", "my notes", Tail{}, 0, "f:1: not a record"},
		{"notes after records", rec + "\nmy notes", Tail{}, 1, "f:2: not a record"},
		{"notes with a newline", "my notes\n", Tail{}, 0, "f:1: not a record"},
		{"whole JSON that begins as a record", `{"k":"b","n":1}`, Tail{}, 0, "f:1: not a record"},
		{"a cut record before the end", `{"k":"b` + "\n" + rec + "\n", Tail{}, 0, "f:1: not a record"},
	} {
		n := 0
		tail, err := Records(strings.NewReader(c.in), "f", `{"k":"`, func(line []byte, at int) error {
			err := isRecord(line, at)
			if err == nil {
				n++
			}
			return err
		})
		if c.err != "" {
			if err == nil || err.Error() != c.err || n != c.records {
				t.Errorf("%s: %v after %d records, want %s after %d", c.name, err, n, c.err, c.records)
			}
			continue
		}
		if err != nil || tail != c.want || n != c.records {
			t.Errorf("%s: %+v, %d records, %v; want %+v, %d records", c.name, tail, n, err, c.want, c.records)
		}
	}
}

// TestKindOf: each command's record is told by its own field, a line of
// none (or of the wrong type, or not JSON) is Unknown, and "key" wins
// over the others.
func TestKindOf(t *testing.T) {
	for _, c := range []struct {
		line string
		want Kind
	}{
		{`{"key":"astar|microban:1|h|t1s|1","solver":"astar","level":"microban:1","status":"solved"}`, Bench},
		{`{"level":"microban:1","solver":"astar","metric":"pushes","before":{"pushes":9}}`, Optimize},
		{`{"level":"microban:1","algo":"fess","status":"solved"}`, Solve},
		{`{"level":"microban:1","status":"solved"}`, Unknown},
		{`{"key":"k","metric":"pushes","algo":"fess"}`, Bench},
		{`{"key":7,"metric":"moves"}`, Optimize},
		{`{"key":"","algo":"fess"}`, Solve},
		{`[1,2]`, Unknown},
		{`{"key":"cut`, Unknown},
	} {
		if got := KindOf([]byte(c.line)); got != c.want {
			t.Errorf("KindOf(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestRecordsLineError: a line Records refuses (its caller's refusal, a
// spliced line, a file whose only line is cut short) is a LineError
// naming the file and line and wrapping the cause; an error of the
// reading (a line over the cap) is not.
func TestRecordsLineError(t *testing.T) {
	refused := errors.New("not mine")
	for _, c := range []struct {
		in   string
		line int
		is   error
	}{
		{`{"a":1}` + "\n" + `{"b":2}` + "\n", 2, refused},
		{`{"a":1}{"a":2}` + "\n", 1, errSpliced},
		{`{"a":`, 1, nil},
	} {
		_, err := Records(strings.NewReader(c.in), "f", "{", func(line []byte, n int) error {
			if !json.Valid(line) || strings.Contains(string(line), `"b"`) {
				return refused
			}
			return nil
		})
		var le *LineError
		if !errors.As(err, &le) || le.Name != "f" || le.Line != c.line || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%q: %v, want a LineError of f:%d wrapping %v", c.in, err, c.line, c.is)
		}
		if want := fmt.Sprintf("f:%d: ", c.line); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want it to start %q", c.in, err, want)
		}
	}
	_, err := Records(strings.NewReader(strings.Repeat("x", MaxLine+1)), "f", "{", func([]byte, int) error { return nil })
	if le := (*LineError)(nil); err == nil || errors.As(err, &le) {
		t.Errorf("a line over the cap: %v, want an error of the reading, not a LineError", err)
	}
}

// A file named .gz that is empty, or too short or not gzip at all, says so
// rather than a bare EOF.
func TestUnzipNotGzip(t *testing.T) {
	for body, want := range map[string]string{
		"":                      "x.gz: empty: no gzip data in a file named .gz",
		"garbage":               "x.gz: not gzip data, though named .gz (unexpected EOF)",
		"garbagegarbagegarbage": "x.gz: not gzip data, though named .gz (gzip: invalid header)",
	} {
		_, err := Unzip(io.NopCloser(strings.NewReader(body)), "x.gz")
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}
