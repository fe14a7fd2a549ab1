package guide

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"

	"soko/internal/hashtab"
	"soko/internal/modelfile"
)

// DefaultBits is the default size of the weight table: 2^DefaultBits rows
// of one weight, a megabyte, few enough collisions for the contexts the
// training solutions hold.
const DefaultBits = 18

// Model is the guide's weight table: one weight per hashed context row.
// The zero model scores every move 0.
type Model struct {
	Bits uint
	W    []float32
}

// NewModel returns a model of 1<<bits zero weights.
func NewModel(bits uint) *Model { return &Model{Bits: bits, W: make([]float32, 1<<bits)} }

// Row returns the row of a table of 2^bits rows that holds context number
// i with value v: a hash of both, so that different contexts with equal
// values fall apart.
func Row(bits uint, i int, v uint64) uint32 {
	return uint32(hashtab.Mix(uint64(i)<<56^v^uint64(i)*0x9e3779b97f4a7c15) >> (64 - bits))
}

// Score returns the sum of the rows' weights: the move's score.
func (m *Model) Score(rows []uint32) float32 {
	var s float32
	for _, r := range rows {
		s += m.W[r]
	}
	return s
}

// The model file, integers little-endian:
//
//	magic    8 bytes  "SOKOGDE\n"
//	version  uint32   fileVersion
//	meta     uint32 length, then that many bytes: the contexts' encoding
//	bits     uint32   the table has 1<<bits rows
//	weights  1<<bits float32
//	crc      uint32   CRC-32 (IEEE) of every byte before it
const (
	magic       = "SOKOGDE\n"
	fileVersion = 1
	minBits     = 8
	maxBits     = 26
)

// Meta names the contexts a model's weights belong to (package fess
// computes them); a model of other contexts is refused. It changes
// whenever the contexts do.
const Meta = "soko guide v1: 3x3 at the box's new and old squares, 4 ahead, in the push's frame (wall,floor,goal,dead,+box); feature changes; same box; pushes, goals"

// ErrFormat is wrapped by every error about a model file's content.
var ErrFormat = errors.New("not a valid guide model file")

// IsModel tells whether data, the start of a file, starts as a guide model
// does.
func IsModel(data []byte) bool { return format.Is(data) }

// format is the guide model file's frame.
var format = modelfile.Format{Magic: magic, Version: fileVersion, Meta: Meta, Err: ErrFormat}

// Write writes the model to w: its table size, then every weight.
func (m *Model) Write(w io.Writer) error {
	fw := format.NewWriter(w)
	fw.Put(uint32(m.Bits))
	fw.Put(m.W)
	return fw.Close()
}

// Save writes the model to path, replacing it whole.
func (m *Model) Save(path string) error { return modelfile.Save(path, m.Write) }

// Read reads a model written by Write. A file of another kind, version or
// contexts, a truncated or corrupt one, is an error wrapping ErrFormat that
// says what is wrong.
func Read(r io.Reader) (*Model, error) {
	fr, err := format.NewReader(r)
	if err != nil {
		return nil, err
	}
	var bits uint32
	if err := fr.Get("table size", &bits); err != nil {
		return nil, err
	}
	if bits < minBits || bits > maxBits {
		return nil, format.Bad("table of 2^%d rows, want 2^%d to 2^%d", bits, minBits, maxBits)
	}
	m := NewModel(uint(bits))
	const chunk = 1 << 14 // read a part at a time: binary.Read holds a copy of what it reads
	for i := 0; i < len(m.W); i += chunk {
		if err := fr.Get("weights", m.W[i:min(i+chunk, len(m.W))]); err != nil {
			return nil, err
		}
	}
	if err := fr.Close(); err != nil {
		return nil, err
	}
	for _, v := range m.W {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, format.Bad("a weight is not finite")
		}
	}
	return m, nil
}

// Load reads a model file written by Save.
func Load(path string) (*Model, error) { return modelfile.Load(path, Read) }

// loaded holds the models Open read, by path, size and time of change:
// the portfolio's members each open the model, and it is read once while
// the file stays as it was. A model is never written to once loaded.
var loaded struct {
	sync.Mutex
	byFile map[string]*Model
}

// Open returns the model at path, read once per process while the file
// is unchanged.
func Open(path string) (*Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())
	loaded.Lock()
	defer loaded.Unlock()
	if m, ok := loaded.byFile[key]; ok {
		return m, nil
	}
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	if loaded.byFile == nil {
		loaded.byFile = map[string]*Model{}
	}
	loaded.byFile[key] = m
	return m, nil
}
