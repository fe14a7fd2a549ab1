package nn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func smallNet(t testing.TB, seed uint64) *Net {
	t.Helper()
	n, err := New(Config{Planes: 3, Embed: 4, Channels: 5, Blocks: 2, Hidden: 6}, seed)
	if err != nil {
		t.Fatal(err)
	}
	n.Meta = "test planes v1"
	return n
}

func encode(t testing.TB, n *Net) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFileRoundTrip(t *testing.T) {
	n := smallNet(t, 5)
	data := encode(t, n)
	m, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if m.Config != n.Config || m.Meta != n.Meta {
		t.Fatalf("read %+v %q, wrote %+v %q", m.Config, m.Meta, n.Config, n.Meta)
	}
	batch := randomBatch(n.Config, 3, 4, 4, rand.New(rand.NewPCG(1, 2)))
	var in []float64
	for _, s := range batch {
		in = append(in, s.Planes...)
	}
	want, err := n.Values(context.Background(), in, 3, 4, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Values(context.Background(), in, 3, 4, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("board %d: value %v after the round trip, %v before", i, got[i], want[i])
		}
	}
	if !bytes.Equal(encode(t, m), data) {
		t.Error("writing the read network gives other bytes")
	}
}

// TestFileErrors: every prefix of a model file, every single-byte
// corruption, another magic, another version and trailing data are refused
// with an ErrFormat error that says what is wrong; none panics.
func TestFileErrors(t *testing.T) {
	data := encode(t, smallNet(t, 5))
	check := func(what string, b []byte, want string) {
		t.Helper()
		_, err := Read(bytes.NewReader(b))
		if err == nil {
			t.Fatalf("%s: read without error", what)
		}
		sameWithoutWeights(t, b, err)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: error %q, want ErrFormat saying %q", what, err, want)
		}
	}
	for k := range len(data) {
		want := "truncated"
		if k < len(magic) {
			want = "too short"
		}
		check("prefix", data[:k], want)
	}
	for i := range data {
		b := bytes.Clone(data)
		b[i] ^= 0x10
		_, err := Read(bytes.NewReader(b))
		if !errors.Is(err, ErrFormat) {
			t.Fatalf("byte %d flipped: error %v", i, err)
		}
		sameWithoutWeights(t, b, err)
	}
	sameWithoutWeights(t, data, nil)
	check("magic", append([]byte("PK\x03\x04xxxx"), data[8:]...), "not a soko model file")
	v := bytes.Clone(data)
	v[8] = 2
	check("version", v, "version 2; this soko reads version 1")
	check("trailing", append(bytes.Clone(data), 0), "data after the checksum")
	w := bytes.Clone(data)
	w[len(w)-5] ^= 1 // the last weight
	check("weight", w, "checksum mismatch")
}

func TestLoadNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.bin")
	n := smallNet(t, 9)
	if err := n.Save(path); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, m), encode(t, n)) {
		t.Error("Load(Save(n)) differs from n")
	}
	data, _ := os.ReadFile(path)
	short := filepath.Join(dir, "short.bin")
	os.WriteFile(short, data[:len(data)-100], 0o644)
	if _, err := Load(short); err == nil || !strings.Contains(err.Error(), short) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated file: %v", err)
	}
	text := filepath.Join(dir, "level.xsb")
	os.WriteFile(text, []byte("#####\n#@$.#\n#####\n"), 0o644)
	if _, err := Load(text); err == nil || !strings.Contains(err.Error(), text) || !strings.Contains(err.Error(), "not a soko model") {
		t.Errorf("level file: %v", err)
	}
	missing := filepath.Join(dir, "missing.bin")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
}

// sameWithoutWeights checks that reading b without keeping the weights (as
// Verify does) gives the error want, the one Read gave.
func sameWithoutWeights(t *testing.T, b []byte, want error) {
	t.Helper()
	n, err := read(bytes.NewReader(b), -1, false)
	if n != nil || fmt.Sprint(err) != fmt.Sprint(want) {
		t.Fatalf("streamed read: %v, Read: %v", err, want)
	}
}
