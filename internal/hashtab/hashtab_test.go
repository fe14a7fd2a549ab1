package hashtab

import "testing"

// TestMapKeepsEveryKey fills a map well past its first size with keys
// that include 0 and 1 (which share a slot: 0 is stored as 1) and keys
// that differ by a constant XOR: each is found with its last value, keys
// never set are not, and the map doubles only when Full said it would.
func TestMapKeepsEveryKey(t *testing.T) {
	m := New[float64](16)
	key := func(i int) uint64 { return uint64(i/5)*0x9e3779b97f4a7c15 ^ uint64(i%5) }
	const n = 5000
	for i := range n {
		slots, full, fresh := len(m.keys), m.Full(), !m.Has(key(i))
		m.Set(key(i), float64(i))
		if grew := len(m.keys) != slots; grew != (full && fresh) {
			t.Fatalf("key %d: grew %v, Full said %v", i, grew, full)
		}
	}
	if m.Len() != n-1 { // keys 0 and 1 are one entry
		t.Fatalf("Len %d, want %d", m.Len(), n-1)
	}
	for i := range n {
		v, ok := m.Get(key(i))
		want := float64(i)
		if key(i) <= 1 {
			want = 1 // key(1) == 1 was set after key(0) == 0
		}
		if !ok || v != want {
			t.Fatalf("key %d: %v, %v; want %v", i, v, ok, want)
		}
	}
	seen := 0
	for k := range m.Keys() {
		if !m.Has(k) {
			t.Fatalf("Keys gives %x, which the map lacks", k)
		}
		seen++
	}
	if seen != m.Len() {
		t.Fatalf("Keys gives %d keys of %d", seen, m.Len())
	}
	if m.Has(0x1234567) || m.Add(key(7)) || !m.Add(0x1234567) || !m.Has(0x1234567) {
		t.Fatal("Has or Add wrong on keys never set")
	}
	if got, want := m.Bytes(), int64(len(m.keys))*16; got != want {
		t.Fatalf("Bytes %d, want %d", got, want)
	}
	if s := New[struct{}](8); s.Bytes() != 64 {
		t.Fatalf("a set of 8 slots takes %d bytes, want 64", s.Bytes())
	}
}
