package modelfile

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

var (
	errTest = errors.New("not a test model")
	format  = Format{Magic: "TESTMDL\n", Version: 3, Meta: "contexts v1", Err: errTest}
)

type model struct{ w []float32 }

func (m *model) write(w *bytes.Buffer) error {
	fw := format.NewWriter(w)
	fw.Put(uint32(len(m.w)))
	fw.Put(m.w)
	return fw.Close()
}

func read(r *bytes.Reader) (*model, error) {
	fr, err := format.NewReader(r)
	if err != nil {
		return nil, err
	}
	var n uint32
	if err := fr.Get("count", &n); err != nil {
		return nil, err
	}
	if n > 1<<10 {
		return nil, format.Bad("%d weights", n)
	}
	m := &model{w: make([]float32, n)}
	if err := fr.Get("weights", m.w); err != nil {
		return nil, err
	}
	return m, fr.Close()
}

// TestFrame: a file reads back as written; every byte changed, a file cut
// anywhere, another version or other contexts is refused with the
// format's error, naming what is wrong.
func TestFrame(t *testing.T) {
	var buf bytes.Buffer
	if err := (&model{w: []float32{1, -2, 3.5}}).write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if !format.Is(data) || format.Is(data[1:]) {
		t.Error("Is: wrong on the file or on a shifted one")
	}
	m, err := read(bytes.NewReader(data))
	if err != nil || len(m.w) != 3 || m.w[2] != 3.5 {
		t.Fatalf("read back: %v, %v", m, err)
	}
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x40
		if _, err := read(bytes.NewReader(bad)); !errors.Is(err, errTest) {
			t.Fatalf("byte %d changed: %v, want the format's error", i, err)
		}
		if _, err := read(bytes.NewReader(data[:i])); !errors.Is(err, errTest) {
			t.Fatalf("cut at %d: %v, want the format's error", i, err)
		}
	}
	if _, err := read(bytes.NewReader(append(bytes.Clone(data), data...))); !errors.Is(err, errTest) || !strings.Contains(err.Error(), "data after the checksum") {
		t.Errorf("two models put together: %v, want the format's error", err)
	}
	for _, f := range []Format{{Magic: format.Magic, Version: 4, Meta: format.Meta, Err: errTest}, {Magic: format.Magic, Version: 3, Meta: "contexts v2", Err: errTest}} {
		var other bytes.Buffer
		fw := f.NewWriter(&other)
		fw.Put(uint32(0))
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := read(bytes.NewReader(other.Bytes())); !errors.Is(err, errTest) {
			t.Errorf("%+v: %v, want the format's error", f, err)
		}
	}
}

// TestSaveLoad: Save writes the file whole; Load reads it and names the
// path in its errors.
func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bin")
	m := &model{w: []float32{0.25}}
	if err := Save(path, func(w io.Writer) error {
		var buf bytes.Buffer
		if err := m.write(&buf); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path, func(r io.Reader) (*model, error) {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		return read(bytes.NewReader(b))
	})
	if err != nil || got.w[0] != 0.25 {
		t.Fatalf("Load: %v, %v", got, err)
	}
	_, err = Load(path, func(io.Reader) (*model, error) { return nil, format.Bad("broken") })
	if err == nil || !errors.Is(err, errTest) || !bytes.Contains([]byte(err.Error()), []byte(path)) {
		t.Errorf("Load's error %v does not name %s", err, path)
	}
}
