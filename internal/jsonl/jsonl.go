// Package jsonl reads soko's JSON Lines files (bench and optimize results,
// solve --json output) one line at a time with a cap on a line's length, so
// that a hostile or broken file (a gzip of one 1 GiB line) is refused with
// its file and line after at most MaxLine bytes, never read whole into
// memory. It also recognises the files soko appends to by their records
// (Records), so that only soko's own files are resumed or trimmed, and
// tells which command wrote a record (KindOf).
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
	n    int   // the number of the line last returned
	off  int64 // the bytes read, through the end of the line last returned
	buf  []byte
}

// NewReader returns a Reader of r; name is the file's name in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), name: name}
}

// bom is the UTF-8 byte order mark some editors put at the start of a
// file; the first line is read without it, as level files are.
const bom = "\xef\xbb\xbf"

// ErrGzip is the error of a file that is gzip-compressed where plain JSON
// lines were expected (a name not ending in .gz, or a file appended to).
var ErrGzip = errors.New("gzip-compressed, not plain JSON lines")

// Line returns the next line without its newline, and whether it ended in
// one (only the last line of the input may not). The slice is valid until
// the next call. At the end of the input it returns io.EOF. A line longer
// than MaxLine is an error naming the file and line, returned as soon as
// the cap is passed. A UTF-8 byte order mark before the first line is left
// out; a first line that begins as gzip data does is ErrGzip, naming the
// file.
func (r *Reader) Line() (line []byte, newline bool, err error) {
	line, newline, err = r.line()
	if err == nil && r.n == 1 {
		if bytes.HasPrefix(line, []byte{0x1f, 0x8b}) {
			if strings.HasSuffix(r.name, ".gz") {
				return nil, false, fmt.Errorf("%s: %w", r.name, ErrGzip)
			}
			return nil, false, fmt.Errorf("%s: %w: only a name ending in .gz is read through gzip", r.name, ErrGzip)
		}
		line = bytes.TrimPrefix(line, []byte(bom))
	}
	return line, newline, err
}

func (r *Reader) line() (line []byte, newline bool, err error) {
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
		if len(r.buf)+len(text) > MaxLine {
			return nil, false, fmt.Errorf("%s:%d: line longer than %d bytes", r.name, r.n, MaxLine)
		}
		// Grow by doubling: append grows a large slice by a quarter, which
		// allocates five times the cap to reach it.
		if need := len(r.buf) + len(text); need > cap(r.buf) {
			r.buf = append(make([]byte, 0, min(max(2*cap(r.buf), need), MaxLine)), r.buf...)
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
// the file and line, with one exception: a record cut short by a killed
// writer (CutShort) as the last line, without its newline, after a whole
// record, is left out (Tail.Cut). A file whose only line is cut short is
// refused: a file without a whole record is taken for a file of records
// only when it is empty. A last line rec takes counts whether or not it
// has its newline.
func Records(r io.Reader, name, prefix string, rec func(line []byte, n int) error) (Tail, error) {
	lr := NewReader(r, name)
	var t Tail
	records := 0
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
				switch {
				case Spliced(text):
					return Tail{}, &LineError{name, lr.N(), errSpliced}
				case newline || !CutShort(line, prefix):
					return Tail{}, &LineError{name, lr.N(), err}
				case records == 0:
					return Tail{}, &LineError{name, lr.N(), errors.New("a record cut short with no whole record before it: not taken for a file of records")}
				}
				t.Cut = lr.N()
				return t, nil
			}
			records++
		}
		t.Keep, t.Newline = lr.Offset(), !newline
	}
}

// LineError is the error of one line that Records refuses: one its
// caller refused, or a record spliced to more, or cut short with no whole
// one before it. Other errors of Records are the reading's (a line too
// long, a gzip file, the reader's own).
type LineError struct {
	Name string // the file
	Line int    // from 1
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// errSpliced is the error of a line holding a JSON value and more after
// it, such as a record with another, or the start of one, after it.
var errSpliced = errors.New("a JSON value with more after it on one line, not one record")

// CutShort reports whether line is a record cut short: it begins as the
// records do (prefix and more, or a part of prefix) and is the beginning
// of a JSON value that ends before the value does, with no whole value in
// it. A line of a whole record, or of a whole record and the start of
// another, is not.
func CutShort(line []byte, prefix string) bool {
	if prefix == "" || len(line) == 0 || !(bytes.HasPrefix(line, []byte(prefix)) || strings.HasPrefix(prefix, string(line))) {
		return false
	}
	var v json.RawMessage
	return json.NewDecoder(bytes.NewReader(line)).Decode(&v) == io.ErrUnexpectedEOF
}

// Spliced reports whether text holds a whole JSON value and more after it
// (what two writers on one file without a lock leave, or a record cut short
// after a whole one on its line).
func Spliced(text []byte) bool {
	d := json.NewDecoder(bytes.NewReader(text))
	var v json.RawMessage
	if d.Decode(&v) != nil {
		return false
	}
	_, err := d.Token()
	return err != io.EOF
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
	switch {
	case err == io.EOF:
		err = errors.New("empty: no gzip data in a file named .gz")
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader):
		err = fmt.Errorf("not gzip data, though named .gz (%w)", err)
	}
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
