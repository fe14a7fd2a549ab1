package levels

import (
	"context"
	"fmt"
	"io"
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
