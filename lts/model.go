package lts

import (
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"

	"soko/internal/modelfile"
)

// Actions is the number of actions: the four player moves, in the order of
// level.Dir.
const Actions = 4

// DefaultBits is the default size of the weight table: 2^DefaultBits rows
// of Actions weights. About a million rows keep the hash collisions of the
// contexts seen in training rare.
const DefaultBits = 20

// Uniform is the share of the uniform policy mixed into the model's: every
// legal move keeps a probability of at least Uniform/4, so one confident
// mistake costs the search a bounded factor, not the solution.
const Uniform = 0.01

// Model is a context model: a table of weights, a row of Actions per
// hashed context. The zero row is a context never trained.
type Model struct {
	Bits uint      // the table has 1<<Bits rows
	W    []float32 // row r, action a at W[r*Actions+a]
}

// NewModel returns a model of 1<<bits rows of zeros: the uniform policy.
func NewModel(bits uint) *Model {
	return &Model{Bits: bits, W: make([]float32, Actions<<bits)}
}

// Policy writes to pr the model's probabilities of the legal actions
// (bit a of legal) given the active contexts' rows, and 0 for the others;
// pr sums to 1 when any action is legal. A nil model is uniform.
func (m *Model) Policy(rows []uint32, legal uint8, pr *[Actions]float64) {
	m.softmax(rows, legal, pr)
	k := 0
	for a := range Actions {
		if legal&(1<<a) != 0 {
			k++
		}
	}
	for a := range Actions {
		if legal&(1<<a) != 0 {
			pr[a] = (1-Uniform)*pr[a] + Uniform/float64(k)
		}
	}
}

// softmax writes the softmax over the legal actions of the summed rows,
// without the uniform mixture: the distribution the log loss trains.
func (m *Model) softmax(rows []uint32, legal uint8, pr *[Actions]float64) {
	var z [Actions]float64
	if m != nil {
		for _, r := range rows {
			w := m.W[int(r)*Actions : int(r)*Actions+Actions]
			for a := range Actions {
				z[a] += float64(w[a])
			}
		}
	}
	top := math.Inf(-1)
	for a := range Actions {
		if legal&(1<<a) != 0 {
			top = max(top, z[a])
		}
	}
	sum := 0.0
	for a := range Actions {
		pr[a] = 0
		if legal&(1<<a) != 0 {
			pr[a] = math.Exp(z[a] - top)
			sum += pr[a]
		}
	}
	for a := range Actions {
		pr[a] /= sum
	}
}

// step makes one gradient step of the log loss −log p(taken) on the rows,
// at rate eta, and returns the loss before it. The gradient of the loss in
// a row's weight for action a is p(a) − [a = taken], the same for every
// active row.
func (m *Model) step(rows []uint32, legal uint8, taken int, eta float64) float64 {
	var pr [Actions]float64
	m.softmax(rows, legal, &pr)
	loss := -math.Log(max(pr[taken], 1e-300))
	var g [Actions]float32
	for a := range Actions {
		if legal&(1<<a) != 0 {
			y := 0.0
			if a == taken {
				y = 1
			}
			g[a] = float32(eta * (pr[a] - y))
		}
	}
	for _, r := range rows {
		w := m.W[int(r)*Actions : int(r)*Actions+Actions]
		for a := range Actions {
			w[a] -= g[a]
		}
	}
	return loss
}

// The model file, integers little-endian:
//
//	magic    8 bytes  "SOKOLTS\n"
//	version  uint32   fileVersion
//	meta     uint32 length, then that many bytes: the contexts' encoding
//	bits     uint32   the table has 1<<bits rows
//	count    uint64   rows stored (those not all zero)
//	rows     count × (uint32 row, Actions × float32), rows increasing
//	crc      uint32   CRC-32 (IEEE) of every byte before it
//
// Only the rows training touched are stored, so that the file is as small
// as what was learnt. Equal models give equal files.
const (
	magic       = "SOKOLTS\n"
	fileVersion = 1
	maxBits     = 28
)

// meta names the contexts the weights belong to; a model of other contexts
// is refused.
const meta = "soko lts v1: last move; moves' outcomes, with the last move, with the centre 3x3; tiles 3x3 at -4..2, 2x2 at -2..1, 1x2, 2x1 at -1..0 around the player; cells floor,goal,dead,wall,+box"

// ErrFormat is wrapped by every error about a model file's content.
var ErrFormat = errors.New("not a valid lts model file")

// IsModel tells whether data, the start of a file, starts as an lts model
// does (its magic).
func IsModel(data []byte) bool { return format.Is(data) }

// format is the lts model file's frame.
var format = modelfile.Format{Magic: magic, Version: fileVersion, Meta: meta, Err: ErrFormat}

// Write writes the model to w.
func (m *Model) Write(w io.Writer) error {
	fw := format.NewWriter(w)
	fw.Put(uint32(m.Bits))
	var count uint64
	for r := range len(m.W) / Actions {
		if !zero(m.W[r*Actions : r*Actions+Actions]) {
			count++
		}
	}
	fw.Put(count)
	for r := range len(m.W) / Actions {
		row := m.W[r*Actions : r*Actions+Actions]
		if !zero(row) {
			fw.Put(uint32(r))
			fw.Put(row)
		}
	}
	return fw.Close()
}

func zero(row []float32) bool {
	for _, v := range row {
		if v != 0 {
			return false
		}
	}
	return true
}

// Save writes the model to path, replacing it whole.
func (m *Model) Save(path string) error { return modelfile.Save(path, m.Write) }

// Read reads a model written by Write. A file of another kind, version or
// encoding, a truncated or corrupt one is an error wrapping ErrFormat that
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
	if bits < 1 || bits > maxBits {
		return nil, format.Bad("table of 2^%d rows, at most 2^%d", bits, maxBits)
	}
	var count uint64
	if err := fr.Get("row count", &count); err != nil {
		return nil, err
	}
	if count > 1<<bits {
		return nil, format.Bad("%d rows in a table of 2^%d", count, bits)
	}
	// The table is dense in memory, however few rows the file holds: one
	// past what the process may use is refused, not allocated and crashed on.
	if need, limit := int64(4*Actions)<<bits, debug.SetMemoryLimit(-1); need > limit {
		return nil, fmt.Errorf("a table of 2^%d rows takes %d MiB, more than the %d MiB this process may use", bits, need>>20, limit>>20)
	}
	m := NewModel(uint(bits))
	last := -1
	for range count {
		var r uint32
		if err := fr.Get("rows", &r); err != nil {
			return nil, err
		}
		if int(r) <= last || r >= 1<<bits {
			return nil, format.Bad("row %d out of order or past the table", r)
		}
		last = int(r)
		if err := fr.Get("rows", m.W[int(r)*Actions:int(r)*Actions+Actions]); err != nil {
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
