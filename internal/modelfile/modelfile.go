// Package modelfile is the frame of soko's context-model files (packages
// lts and guide): a magic, a version, the description of the contexts
// the weights belong to (a model of other contexts is refused), the
// model's own body, and a CRC-32 (IEEE) of every byte before it; integers
// little-endian. A file is written whole (outfile.Replace) and read with
// errors that say what is wrong.
package modelfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"strings"

	"soko/internal/outfile"
)

// Format is a kind of model file.
type Format struct {
	Magic   string
	Version uint32
	Meta    string // the contexts' description
	Err     error  // wrapped by every error about a file's content
}

// Bad returns an error wrapping f.Err that says what is wrong.
func (f Format) Bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", f.Err, fmt.Sprintf(format, args...))
}

// Is tells whether data, the start of a file, starts as a file of format
// f does (its magic).
func (f Format) Is(data []byte) bool { return strings.HasPrefix(string(data), f.Magic) }

// Writer writes one file of a format: the header when it is made, the
// body by Put, the checksum by Close. The first error sticks.
type Writer struct {
	w   io.Writer
	out io.Writer
	crc hash.Hash32
	err error
}

// NewWriter starts a file of format f on w.
func (f Format) NewWriter(w io.Writer) *Writer {
	crc := crc32.NewIEEE()
	fw := &Writer{w: w, out: io.MultiWriter(w, crc), crc: crc}
	fw.Put([]byte(f.Magic))
	fw.Put(f.Version)
	fw.Put(uint32(len(f.Meta)))
	fw.Put([]byte(f.Meta))
	return fw
}

// Put writes v (a fixed-size value or a slice of them).
func (w *Writer) Put(v any) {
	if w.err == nil {
		w.err = binary.Write(w.out, binary.LittleEndian, v)
	}
}

// Close writes the checksum and returns the first error.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	return binary.Write(w.w, binary.LittleEndian, w.crc.Sum32())
}

// Reader reads one file of a format: the header is checked when it is
// made, the body read by Get, the checksum checked by Close.
type Reader struct {
	f   Format
	r   io.Reader
	in  io.Reader
	crc hash.Hash32
}

// NewReader reads and checks the header of a file of format f from r.
func (f Format) NewReader(r io.Reader) (*Reader, error) {
	crc := crc32.NewIEEE()
	fr := &Reader{f: f, r: r, in: io.TeeReader(r, crc), crc: crc}
	head := make([]byte, len(f.Magic))
	if err := fr.Get("magic", head); err != nil {
		return nil, err
	}
	if string(head) != f.Magic {
		return nil, f.Bad("it does not start with %q", f.Magic)
	}
	var version, n uint32
	if err := fr.Get("version", &version); err != nil {
		return nil, err
	}
	if version != f.Version {
		return nil, f.Bad("version %d, this build reads version %d", version, f.Version)
	}
	if err := fr.Get("meta length", &n); err != nil {
		return nil, err
	}
	if n != uint32(len(f.Meta)) {
		return nil, f.Bad("contexts of another encoding (meta of %d bytes)", n)
	}
	text := make([]byte, n)
	if err := fr.Get("meta", text); err != nil {
		return nil, err
	}
	if string(text) != f.Meta {
		return nil, f.Bad("contexts of another encoding: %q", text)
	}
	return fr, nil
}

// Get reads v; what names it in the error of a file cut short.
func (r *Reader) Get(what string, v any) error {
	err := binary.Read(r.in, binary.LittleEndian, v)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return r.f.Bad("truncated in the %s", what)
	}
	return err
}

// Close reads the checksum and checks it against the bytes read, and that
// nothing comes after it (two models put together, a botched copy).
func (r *Reader) Close() error {
	sum := r.crc.Sum32()
	var stored uint32
	if err := binary.Read(r.r, binary.LittleEndian, &stored); err != nil {
		return r.f.Bad("truncated in the checksum")
	}
	if stored != sum {
		return r.f.Bad("checksum mismatch (the file is corrupt)")
	}
	if n, _ := io.ReadFull(r.r, make([]byte, 1)); n > 0 {
		return r.f.Bad("data after the checksum")
	}
	return nil
}

// Save writes a model to path with write, replacing the file whole.
func Save(path string, write func(io.Writer) error) error {
	return outfile.Replace(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// Load reads the model file at path with read; its errors name the path.
func Load[M any](path string, read func(io.Reader) (M, error)) (M, error) {
	f, err := os.Open(path)
	if err != nil {
		var none M
		return none, err
	}
	defer f.Close()
	m, err := read(bufio.NewReader(f))
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}
