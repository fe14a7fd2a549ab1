package nn

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

// The model file, all integers little-endian:
//
//	magic    8 bytes  "SOKONN\r\n" (a line-ending conversion breaks it)
//	version  uint32   FileVersion
//	config   5×uint32 Planes, Embed, Channels, Blocks, Hidden
//	meta     uint32 length, then that many bytes (at most MaxMeta)
//	count    uint64   number of weights, which must be Config.Weights()
//	weights  count×float64, in the order of the network's tensors
//	crc      uint32   CRC-32 (IEEE) of every byte before it
const (
	magic       = "SOKONN\r\n"
	FileVersion = 1
	MaxMeta     = 4096
)

// ErrFormat is wrapped by every error about a file's content.
var ErrFormat = errors.New("not a valid model file")

// Write writes the network's shape, meta text and weights to w, a tensor
// at a time, so that writing a large network takes little memory beside
// its weights.
func (n *Net) Write(w io.Writer) error {
	if len(n.Meta) > MaxMeta {
		return fmt.Errorf("nn: meta text of %d bytes, at most %d", len(n.Meta), MaxMeta)
	}
	crc := crc32.NewIEEE()
	out := io.MultiWriter(w, crc)
	var err error
	put := func(v any) {
		if err == nil {
			err = binary.Write(out, binary.LittleEndian, v)
		}
	}
	put([]byte(magic))
	put(uint32(FileVersion))
	for _, v := range []int{n.Planes, n.Embed, n.Channels, n.Blocks, n.Hidden} {
		put(uint32(v))
	}
	put(uint32(len(n.Meta)))
	put([]byte(n.Meta))
	put(uint64(n.Weights()))
	for _, p := range n.params {
		put(p.w)
	}
	put(crc.Sum32())
	return err
}

// Read reads a network written by Write. A file of another kind or
// version, a truncated or corrupt one is an error wrapping ErrFormat that
// says what is wrong.
func Read(r io.Reader) (*Net, error) { return read(r, -1, true) }

// bad is an error about a file's content.
func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}

// readPart reads v, a truncated file being an error that names what.
func readPart(in io.Reader, what string, v any) error {
	err := binary.Read(in, binary.LittleEndian, v)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return bad("truncated in the %s", what)
	}
	return err
}

// IsModel tells whether data, the start of a file, starts as a soko model
// file does (its magic), so that a model is not written over by an output
// of another kind, nor another file by a model.
func IsModel(data []byte) bool { return strings.HasPrefix(string(data), magic) }

// readHeader reads a model file's header, up to the count of weights, and
// returns the shape and meta text it declares.
func readHeader(in io.Reader) (Config, string, error) {
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(in, head); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return Config{}, "", bad("too short for a soko model (%d bytes)", len(magic))
		}
		return Config{}, "", err
	}
	if string(head) != magic {
		return Config{}, "", bad("not a soko model file (it does not start with %q)", magic)
	}
	var version uint32
	if err := readPart(in, "header", &version); err != nil {
		return Config{}, "", err
	}
	if version != FileVersion {
		return Config{}, "", bad("model file version %d; this soko reads version %d", version, FileVersion)
	}
	var shape [5]uint32
	if err := readPart(in, "header", &shape); err != nil {
		return Config{}, "", err
	}
	for _, v := range shape {
		if v > math.MaxInt32 {
			return Config{}, "", bad("network shape %v out of range", shape)
		}
	}
	c := Config{Planes: int(shape[0]), Embed: int(shape[1]), Channels: int(shape[2]), Blocks: int(shape[3]), Hidden: int(shape[4])}
	if err := c.Check(); err != nil {
		return Config{}, "", bad("%v", err)
	}
	var metaLen uint32
	if err := readPart(in, "header", &metaLen); err != nil {
		return Config{}, "", err
	}
	if metaLen > MaxMeta {
		return Config{}, "", bad("meta text of %d bytes, at most %d", metaLen, MaxMeta)
	}
	meta := make([]byte, metaLen)
	if err := readPart(in, "header", meta); err != nil {
		return Config{}, "", err
	}
	var count uint64
	if err := readPart(in, "header", &count); err != nil {
		return Config{}, "", err
	}
	if count != uint64(c.Weights()) {
		return Config{}, "", bad("%d weights for a network that has %d", count, c.Weights())
	}
	return c, string(meta), nil
}

// fileSize is the length of the file of a network of shape c with meta
// text of metaLen bytes.
func fileSize(c Config, metaLen int) int64 {
	return int64(len(magic)) + 4*(1+5+1) + int64(metaLen) + 8 + 8*int64(c.Weights()) + 4
}

// read is Read; size, when not negative, is the length of the input, checked
// against the shape before the weights are allocated. With keep false the
// weights are checked as they stream past and no network is built: read
// then returns nil and the error Read would give.
func read(r io.Reader, size int64, keep bool) (*Net, error) {
	crc := crc32.NewIEEE()
	in := io.TeeReader(bufio.NewReader(r), crc)
	c, meta, err := readHeader(in)
	if err != nil {
		return nil, err
	}
	if want := fileSize(c, len(meta)); size >= 0 && size != want {
		if size < want {
			return nil, bad("truncated: %d bytes, a network of this shape takes %d", size, want)
		}
		return nil, bad("%d bytes, %d more than a network of this shape takes", size, size-want)
	}
	finite := true
	check := func(w []float64) {
		for _, v := range w {
			finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
	}
	var n *Net
	if keep {
		n = build(c)
		n.Meta = meta
		for _, p := range n.params {
			if err := readPart(in, "weights", p.w); err != nil {
				return nil, err
			}
			check(p.w)
		}
	} else {
		buf := make([]float64, min(c.Weights(), verifyChunk))
		for left := c.Weights(); left > 0; left -= len(buf) {
			buf = buf[:min(left, len(buf))]
			if err := readPart(in, "weights", buf); err != nil {
				return nil, err
			}
			check(buf)
		}
	}
	sum := crc.Sum32()
	var stored uint32
	if err := readPart(in, "checksum", &stored); err != nil {
		return nil, err
	}
	if stored != sum {
		return nil, bad("checksum mismatch: the file is corrupt")
	}
	if k, _ := in.Read(make([]byte, 1)); k > 0 {
		return nil, bad("data after the checksum")
	}
	if !finite {
		return nil, bad("a weight is not finite")
	}
	return n, nil
}

// verifyChunk is how many weights Verify holds at a time.
const verifyChunk = 1 << 13

// Verify checks the model file path as Load does (shape, size, checksum,
// finite weights) without holding its weights: a caller can tell a file is
// sound before it spends memory on it. Errors name the file.
func Verify(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	if _, err := read(f, st.Size(), false); err != nil {
		return fmt.Errorf("model %s: %w", path, err)
	}
	return nil
}

// Save writes the network to the file path, through a temporary file in
// the same directory, so that a failed write leaves no half file behind
// (outfile.Replace: a path that exists and is not a regular file is
// refused, since the rename would replace it).
func (n *Net) Save(path string) error {
	if err := outfile.Replace(path, n.Write); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return nil
}

// Load reads the network in the file path; errors name the file. The
// file's size is checked against the shape its header declares before the
// weights are allocated.
func Load(path string) (*Net, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	n, err := read(f, st.Size(), true)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	return n, nil
}

// LoadEncoded is Load for a user of the network whose input encoding is
// named meta, with planes input planes: a network trained for another
// encoding is an error that wraps errEncoding, names the file and quotes
// the meta text it holds.
func LoadEncoded(path, meta string, planes int, errEncoding error) (*Net, error) {
	n, err := Load(path)
	if err != nil {
		return nil, err
	}
	if n.Meta != meta || n.Planes != planes {
		return nil, fmt.Errorf("model %s: %w (it says %q)", path, errEncoding, n.Meta)
	}
	return n, nil
}

// VerifyEncoded is Verify for a user of the network whose input encoding
// is named meta, with planes input planes: besides the checks of Verify, a
// network trained for another encoding is an error, as LoadEncoded says it.
func VerifyEncoded(path, meta string, planes int, errEncoding error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("model: %w", err)
	}
	c, m, err := readHeader(bufio.NewReader(f))
	f.Close()
	if err != nil {
		return fmt.Errorf("model %s: %w", path, err)
	}
	if m != meta || c.Planes != planes {
		return fmt.Errorf("model %s: %w (it says %q)", path, errEncoding, m)
	}
	return Verify(path)
}

// ReadConfig returns the shape of the network in the file path, reading
// only its header, so that a caller can tell whether the network fits its
// memory before the weights are read; errors name the file.
func ReadConfig(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	c, _, err := readHeader(bufio.NewReader(f))
	if err != nil {
		return Config{}, fmt.Errorf("model %s: %w", path, err)
	}
	return c, nil
}
