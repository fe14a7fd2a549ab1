package sokoban

import "testing"

// TestStoreCollisions interns keys whose hashes share the table slot, the
// tag (the hash's top half) or the whole hash: each key keeps its own id,
// is found again under its hash, and the table grows past them intact.
func TestStoreCollisions(t *testing.T) {
	colliding := []uint64{
		0x1234_5678_0000_0001,
		0x1234_5678_0000_0001, // same hash, different key
		0x1234_5678_0000_0401, // same tag, same slot while the table has 1024
		0x8765_4321_0000_0001, // same slot, other tag
		0,
	}
	hash := func(i int) uint64 {
		if i < len(colliding) {
			return colliding[i]
		}
		return uint64(i) * 0x9e37_79b9_7f4a_7c15
	}
	key := func(i int) []byte { return []byte{byte(i), byte(i >> 8)} }
	s := NewStore(2)
	const n = 3000 // the table grows twice
	for i := range n {
		if id, fresh := s.Intern(key(i), hash(i)); !fresh || int(id) != i {
			t.Fatalf("key %d: id %d fresh %v, want a fresh id %d", i, id, fresh, i)
		}
	}
	for i := range n {
		if id, ok := s.Find(key(i), hash(i)); !ok || int(id) != i {
			t.Errorf("key %d: found %d, %v", i, id, ok)
		}
		if id, fresh := s.Intern(key(i), hash(i)); fresh || int(id) != i {
			t.Errorf("key %d interned again: id %d fresh %v", i, id, fresh)
		}
	}
	if _, ok := s.Find([]byte{0xff, 0xff}, colliding[0]); ok {
		t.Error("a key never stored is found under a colliding hash")
	}
}
