package lts

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"strings"

	"soko/internal/outfile"
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
func IsModel(data []byte) bool { return strings.HasPrefix(string(data), magic) }

// Write writes the model to w.
func (m *Model) Write(w io.Writer) error {
	crc := crc32.NewIEEE()
	out := io.MultiWriter(w, crc)
	var err error
	put := func(v any) {
		if err == nil {
			err = binary.Write(out, binary.LittleEndian, v)
		}
	}
	put([]byte(magic))
	put(uint32(fileVersion))
	put(uint32(len(meta)))
	put([]byte(meta))
	put(uint32(m.Bits))
	var count uint64
	for r := range len(m.W) / Actions {
		if !zero(m.W[r*Actions : r*Actions+Actions]) {
			count++
		}
	}
	put(count)
	for r := range len(m.W) / Actions {
		row := m.W[r*Actions : r*Actions+Actions]
		if !zero(row) {
			put(uint32(r))
			put(row)
		}
	}
	put(crc.Sum32())
	return err
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
func (m *Model) Save(path string) error {
	return outfile.Replace(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := m.Write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}

// Read reads a model written by Write. A file of another kind, version or
// encoding, a truncated or corrupt one is an error wrapping ErrFormat that
// says what is wrong.
func Read(r io.Reader) (*Model, error) {
	crc := crc32.NewIEEE()
	in := io.TeeReader(r, crc)
	get := func(what string, v any) error {
		err := binary.Read(in, binary.LittleEndian, v)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bad("truncated in the %s", what)
		}
		return err
	}
	head := make([]byte, len(magic))
	if err := get("magic", head); err != nil {
		return nil, err
	}
	if string(head) != magic {
		return nil, bad("it does not start with %q", magic)
	}
	var version, n, bits uint32
	if err := get("version", &version); err != nil {
		return nil, err
	}
	if version != fileVersion {
		return nil, bad("version %d, this build reads version %d", version, fileVersion)
	}
	if err := get("meta length", &n); err != nil {
		return nil, err
	}
	if n != uint32(len(meta)) {
		return nil, bad("contexts of another encoding (meta of %d bytes)", n)
	}
	text := make([]byte, n)
	if err := get("meta", text); err != nil {
		return nil, err
	}
	if string(text) != meta {
		return nil, bad("contexts of another encoding: %q", text)
	}
	if err := get("table size", &bits); err != nil {
		return nil, err
	}
	if bits < 1 || bits > maxBits {
		return nil, bad("table of 2^%d rows, at most 2^%d", bits, maxBits)
	}
	var count uint64
	if err := get("row count", &count); err != nil {
		return nil, err
	}
	if count > 1<<bits {
		return nil, bad("%d rows in a table of 2^%d", count, bits)
	}
	m := NewModel(uint(bits))
	last := -1
	for range count {
		var r uint32
		if err := get("rows", &r); err != nil {
			return nil, err
		}
		if int(r) <= last || r >= 1<<bits {
			return nil, bad("row %d out of order or past the table", r)
		}
		last = int(r)
		if err := get("rows", m.W[int(r)*Actions:int(r)*Actions+Actions]); err != nil {
			return nil, err
		}
	}
	sum := crc.Sum32()
	var stored uint32
	if err := binary.Read(r, binary.LittleEndian, &stored); err != nil {
		return nil, bad("truncated in the checksum")
	}
	if stored != sum {
		return nil, bad("checksum mismatch (the file is corrupt)")
	}
	for _, v := range m.W {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, bad("a weight is not finite")
		}
	}
	return m, nil
}

// Load reads a model file written by Save.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}
