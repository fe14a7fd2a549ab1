package levels

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"soko/level"
)

// endless is standard input that never ends: blanks, one endless line.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' ' // text: NUL bytes would be a binary file, not a long line
	}
	e.read += len(p)
	return len(p), nil
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Standard input (or a FIFO) that is one endless line is read only as far
// as the parser reads a line, then refused naming the line; before, 64 MiB
// were read into memory first (soko list /dev/zero took 422 MB). Input of
// lines is read whole and levels after long comments are found.
func TestStreamStopsAtLongLine(t *testing.T) {
	base := liveHeap()
	in := &endless{}
	s, ok, err := OpenStream(context.Background(), "-", in)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if grown := int64(liveHeap()) - int64(base); grown > 8<<20 || in.read > 4*level.MaxLine {
		t.Errorf("read %d KiB and kept %d KiB of one endless line", in.read>>10, grown>>10)
	}
	err = s.Each(context.Background(), func(Entry) error { return nil })
	if want := fmt.Sprintf("%s:1: line longer than %d bytes", StdinSource, level.MaxLine); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}

	text := strings.Repeat("; "+strings.Repeat("x", 1000)+"\r\n", 3000) + "#####\n#@$.#\n#####\n"
	s, _, err = OpenStream(context.Background(), "-", io.MultiReader(strings.NewReader(text)))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := s.Each(context.Background(), func(e Entry) error { n++; return nil }); err != nil || n != 1 {
		t.Errorf("%d levels after 3 MB of comments: %v", n, err)
	}
}

// A selection from a regular file reads it only as far as its last level
// selected: a NUL byte after it (a file broken further on) does not stop
// it, and the levels come in the selection's order. A selection past the
// end reads the whole file and names its count, and a file over
// level.MaxInput is refused from its size, before any of it is read.
func TestSelectionReadsUpToItsLastLevel(t *testing.T) {
	dir := t.TempDir()
	good := "#####\n#@$.#\n#####\n\n"
	path := filepath.Join(dir, "c.xsb")
	if err := os.WriteFile(path, []byte(strings.Repeat(good, 3)+"\x00\n"+good), 0o644); err != nil {
		t.Fatal(err)
	}
	ls, err := ResolveAll(context.Background(), []string{path + ":3,1-2"}, nil)
	if err != nil || len(ls) != 3 || ls[0].Index != 3 || ls[1].Index != 1 || ls[2].Index != 2 {
		t.Fatalf("3,1-2: %d levels, %v; want levels 3, 1 and 2", len(ls), err)
	}
	if _, err := ResolveAll(context.Background(), []string{path + ":4"}, nil); err == nil || !strings.Contains(err.Error(), "NUL byte") {
		t.Errorf("4, past the NUL byte: %v, want the NUL byte", err)
	}
	clean := filepath.Join(dir, "d.xsb")
	if err := os.WriteFile(clean, []byte(strings.Repeat(good, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveAll(context.Background(), []string{clean + ":2-5"}, nil); err == nil || !strings.Contains(err.Error(), "level 5 out of range: the collection has 3 levels") {
		t.Errorf("2-5 of 3: %v", err)
	}
	huge := filepath.Join(dir, "huge.xsb")
	if err := os.WriteFile(huge, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, level.MaxInput+1); err != nil { // sparse: no 64 MiB written
		t.Fatal(err)
	}
	for _, spec := range []string{huge + ":1", huge} {
		if _, err := ResolveAll(context.Background(), []string{spec}, nil); !errors.Is(err, level.ErrTooLarge) {
			t.Errorf("%s: %v, want too large", spec, err)
		}
	}
}
