package level

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeater is an endless reader of one text over and over.
type repeater struct {
	text string
	at   int // where in text the next read starts
}

func repeat(text string) *repeater { return &repeater{text: text} }

func (r *repeater) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.text[r.at:])
		n += k
		r.at = (r.at + k) % len(r.text)
	}
	return n, nil
}

// heapSampler passes reads through and, every MiB read, collects garbage
// and keeps the largest live heap seen above base: the memory the parser
// holds while it reads.
type heapSampler struct {
	r          io.Reader
	read, next int
	base, peak uint64
}

func newHeapSampler(r io.Reader) *heapSampler {
	s := &heapSampler{r: r, next: 1 << 20}
	s.base = liveHeap()
	return s
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func (s *heapSampler) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.read += n
	if s.read >= s.next {
		s.next += 1 << 20
		if h := liveHeap(); h > s.base {
			s.peak = max(s.peak, h-s.base)
		}
	}
	return n, err
}

// Text without levels, or with a level after megabytes of comments, reads
// in bounded memory: the comments kept stop at MaxCommentLines and
// MaxCommentBytes and the rest are counted. Before, every line was kept
// (a 60 MB file of "y" lines took 1.4 GB to list).
func TestCommentsBounded(t *testing.T) {
	const size = 6 << 20 // a multiple of each line's length below
	const board = "#####\n#@$.#\n#####\n"
	long := strings.Repeat("c", 189) // "; " and "\n" make lines of 192 bytes
	cases := []struct {
		name, line, tail string
		kept, dropped    int // the level's comments (or the header's, without a level)
		header           bool
	}{
		{"one-letter lines", "y\n", "", 0, 0, false},
		{"one-letter blocks", "y\n\n", "", MaxCommentLines, size/3 - MaxCommentLines, true},
		{"comments before a level", "; c\n", "; 7 last\n" + board, MaxCommentLines, size/4 - MaxCommentLines, false},
		{"long comments before a level", "; " + long + "\n", "; 7 last\n" + board, MaxCommentBytes / len(long), size/(len(long)+3) - MaxCommentBytes/len(long), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if size%len(c.line) != 0 {
				t.Fatalf("%d bytes are not whole lines of %d", size, len(c.line))
			}
			in := newHeapSampler(io.MultiReader(io.LimitReader(repeat(c.line), size), strings.NewReader(c.tail)))
			coll, err := ParseCollection(in, "big.xsb")
			if err != nil {
				t.Fatal(err)
			}
			if in.peak > 8<<20 {
				t.Errorf("the parser held %d MiB while reading %d MiB of comments", in.peak>>20, size>>20)
			}
			switch {
			case c.header:
				if len(coll.Header) != c.kept || coll.HeaderDropped != c.dropped {
					t.Errorf("header of %d lines, %d dropped; want %d and %d", len(coll.Header), coll.HeaderDropped, c.kept, c.dropped)
				}
			case c.tail != "":
				if len(coll.Levels) != 1 {
					t.Fatalf("%d levels, want 1", len(coll.Levels))
				}
				l := coll.Levels[0]
				if len(l.Comments) != c.kept || l.CommentsDropped != c.dropped || l.Number != "7" || l.Title != "last" {
					t.Errorf("level %q (%q) with %d comments, %d dropped; want 7 last with %d and %d", l.Number, l.Title, len(l.Comments), l.CommentsDropped, c.kept, c.dropped)
				}
			default:
				if len(coll.Levels) != 0 || len(coll.Header) != 0 {
					t.Errorf("%d levels, %d header lines from text without a level or a blank line", len(coll.Levels), len(coll.Header))
				}
			}
		})
	}
}

// A title comment kept within the limits still gives the level its number
// and is not a comment; the comments before it stay.
func TestTitleAfterComments(t *testing.T) {
	ls, err := ParseString("; a\n; b\n; 3 three\n#####\n#@$.#\n#####\n", "t.xsb")
	if err != nil {
		t.Fatal(err)
	}
	if l := ls[0]; l.Number != "3" || l.Title != "three" || strings.Join(l.Comments, "|") != "a|b" || l.CommentsDropped != 0 {
		t.Fatalf("number %q, title %q, comments %q (%d dropped)", l.Number, l.Title, l.Comments, l.CommentsDropped)
	}
}

// A line longer than MaxLine is an error naming the file and the line,
// read in bounded memory, whether it ends or not; a line of MaxLine bytes
// is read. Before, the scanner grew its buffer to MaxInput (64 MiB) and a
// file without line ends, such as /dev/zero, took 422 MB; it is a binary
// file, and said to be one.
func TestLineTooLong(t *testing.T) {
	cases := []struct {
		name string
		r    io.Reader
		line int
	}{
		{"zeros", io.LimitReader(zeros{}, MaxInput+10), 1},
		{"no end", strings.NewReader(strings.Repeat("x", MaxLine+1)), 1},
		{"LF", strings.NewReader("; a\n\n" + strings.Repeat("x", MaxLine+1) + "\n"), 3},
		{"CRLF", strings.NewReader("; a\r\n\r\n#####\r\n; " + strings.Repeat("x", MaxLine) + "\r\n"), 4},
		{"longer", io.MultiReader(strings.NewReader("; a\n"), io.LimitReader(repeat("y"), 3*MaxLine)), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := fmt.Sprintf("line longer than %d bytes", MaxLine)
			if c.name == "zeros" {
				want = "a NUL byte: a binary file, not level text"
			}
			in := newHeapSampler(c.r)
			_, err := ParseCollection(in, "f.xsb")
			var e *Error
			if !errors.As(err, &e) || e.Msg != want || e.Line != c.line || e.File != "f.xsb" {
				t.Fatalf("error %v; want f.xsb:%d: %s", err, c.line, want)
			}
			if in.peak > 8<<20 {
				t.Errorf("the parser held %d MiB", in.peak>>20)
			}
		})
	}
	text := "; " + strings.Repeat("x", MaxLine-2) + "\r\n#####\n#@$.#\n#####\n"
	if ls, err := ParseString(text, "f.xsb"); err != nil || len(ls[0].Comments[0]) != MaxLine-2 {
		t.Fatalf("a line of MaxLine bytes: %v", err)
	}
}
