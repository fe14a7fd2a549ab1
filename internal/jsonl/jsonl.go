// Package jsonl reads soko's JSON Lines files (bench and optimize results,
// solve --json output) one line at a time with a cap on a line's length, so
// that a hostile or broken file (a gzip of one 1 GiB line) is refused with
// its file and line after at most MaxLine bytes, never read whole into
// memory. It also recognises the files soko appends to by their records
// (Records), so that only soko's own files are resumed or trimmed.
package jsonl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"soko/level"
)

// MaxLine is the longest line, in bytes, that a Reader returns: the
// longest solution text a record can hold (level.MaxSolutionText) with
// room for the rest of the record. The largest record in results/ is under
// 4 KB, so this is a thousand times what soko writes.
const MaxLine = level.MaxSolutionText + 64<<10

// Reader reads lines of at most MaxLine bytes and counts them.
type Reader struct {
	br   *bufio.Reader
	name string
	max  int
	n    int   // the number of the line last returned
	off  int64 // the bytes read, through the end of the line last returned
	buf  []byte
}

// NewReader returns a Reader of r; name is the file's name in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), name: name, max: MaxLine}
}

// Line returns the next line without its newline, and whether it ended in
// one (only the last line of the input may not). The slice is valid until
// the next call. At the end of the input it returns io.EOF. A line longer
// than MaxLine is an error naming the file and line, returned as soon as
// the cap is passed.
func (r *Reader) Line() (line []byte, newline bool, err error) {
	r.buf = r.buf[:0]
	started := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(chunk) > 0 && !started {
			started = true
			r.n++
		}
		text := chunk
		if err == nil {
			text = chunk[:len(chunk)-1]
		}
		if len(r.buf)+len(text) > r.max {
			return nil, false, fmt.Errorf("%s:%d: line longer than %d bytes", r.name, r.n, r.max)
		}
		// Grow by doubling: append grows a large slice by a quarter, which
		// allocates five times the cap to reach it.
		if need := len(r.buf) + len(text); need > cap(r.buf) {
			r.buf = append(make([]byte, 0, min(max(2*cap(r.buf), need), r.max)), r.buf...)
		}
		r.buf = append(r.buf, text...)
		r.off += int64(len(chunk))
		switch {
		case err == nil:
			return r.buf, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && started:
			return r.buf, false, nil
		case err == io.EOF:
			return nil, false, io.EOF
		}
		n := r.n
		if !started {
			n++
		}
		return nil, false, fmt.Errorf("%s:%d: %w", r.name, n, err)
	}
}

// N is the number of the line Line returned last, from 1.
func (r *Reader) N() int { return r.n }

// Offset is the number of bytes read through the end of the line Line
// returned last, its newline included.
func (r *Reader) Offset() int64 { return r.off }

// Tail is where the whole records of a file end, for a writer appending
// to it.
type Tail struct {
	Keep    int64 // the length of the file's whole records (and blank lines); a cut record after them is to be cut off
	Newline bool  // the last record ends without a newline: write one before the next
	Cut     int   // the line of a cut record after Keep, 0 if none
}

// Records gives rec each line of r that is not blank, with its number, and
// says where the whole records end. A line rec refuses is an error naming
// the file and line, with one exception: a last line without its newline
// that begins as the records do (prefix, such as `{"key":"`), is not whole
// JSON and that rec refuses is a record cut short by a killed writer, and
// is left out (Tail.Cut).
// A last line rec takes counts whether or not it has its newline.
func Records(r io.Reader, name, prefix string, rec func(line []byte, n int) error) (Tail, error) {
	lr := NewReader(r, name)
	var t Tail
	for {
		line, newline, err := lr.Line()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return Tail{}, err
		}
		if text := bytes.TrimSpace(line); len(text) > 0 {
			if err := rec(text, lr.N()); err != nil {
				if !newline && cutFrom(line, prefix) && !json.Valid(text) {
					t.Cut = lr.N()
					return t, nil
				}
				return Tail{}, fmt.Errorf("%s:%d: %w", name, lr.N(), err)
			}
		}
		t.Keep, t.Newline = lr.Offset(), !newline
	}
}

// cutFrom reports whether line is a beginning of a record that starts
// with prefix: prefix and more, or a part of prefix.
func cutFrom(line []byte, prefix string) bool {
	return prefix != "" && len(line) > 0 && (bytes.HasPrefix(line, []byte(prefix)) || strings.HasPrefix(prefix, string(line)))
}

// Open opens a JSONL file for reading; one whose name ends in .gz is read
// through gzip, so that large committed results stay small.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return Unzip(f, path)
}

// Unzip returns f as it is, or read through gzip when path ends in .gz;
// closing what it returns closes f. On error f is closed.
func Unzip(f io.ReadCloser, path string) (io.ReadCloser, error) {
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return gzipCloser{z, f}, nil
}

// gzipCloser reads a gzip stream and closes the file under it.
type gzipCloser struct {
	*gzip.Reader
	f io.Closer
}

func (r gzipCloser) Close() error {
	r.Reader.Close()
	return r.f.Close()
}
