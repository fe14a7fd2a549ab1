package sokoban

import "testing"

// TestStoreCollisions interns keys whose hashes share the table slot, the
// tag (the hash's top half) or the whole hash: each key keeps its own id,
// is found again under its hash, and the table grows past them intact.
func TestStoreCollisions(t *testing.T) {
	colliding := []uint64{
		0x1234_5678_0000_0001,
		0x1234_5678_0000_0001, // same hash, different key
		0x1234_5678_0000_0401, // same tag, same slot while its part has 1024
		0x1234_5679_0000_0001, // same part and slot, other tag
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
	const n = 9000 // the table grows four times; the keys fill three pages
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
		if got := s.Key(uint32(i)); string(got) != string(key(i)) || s.Hash(uint32(i)) != hash(i) {
			t.Errorf("id %d holds key %v hash %x, want %v %x", i, got, s.Hash(uint32(i)), key(i), hash(i))
		}
	}
	if s.Len() != n {
		t.Errorf("Len %d, want %d", s.Len(), n)
	}
	s.Reset()
	if s.Len() != 0 {
		t.Errorf("Len %d after Reset", s.Len())
	}
	if _, ok := s.Find(key(5), hash(5)); ok {
		t.Error("a key is found after Reset")
	}
	if id, fresh := s.Intern(key(7), hash(7)); !fresh || id != 0 || string(s.Key(0)) != string(key(7)) {
		t.Errorf("after Reset: id %d fresh %v key %v", id, fresh, s.Key(0))
	}
	if _, ok := s.Find([]byte{0xff, 0xff}, colliding[0]); ok {
		t.Error("a key never stored is found under a colliding hash")
	}
}

// TestStoreTouch checks that Touch, on hashes of stored keys, absent keys
// and colliding tags, changes nothing: the same ids are found, and keys
// interned afterwards get the next ids.
func TestStoreTouch(t *testing.T) {
	s := NewStore(2)
	key := func(i int) []byte { return []byte{byte(i), byte(i >> 8)} }
	hash := func(i int) uint64 { return uint64(i%7) << 32 } // tags collide
	for i := range 100 {
		s.Intern(key(i), hash(i))
	}
	hashes := make([]uint64, 0, 300)
	for i := range 300 {
		hashes = append(hashes, hash(i))
	}
	s.Touch(hashes)
	for i := range 300 {
		id, fresh := s.Intern(key(i), hash(i))
		if id != uint32(i) || fresh != (i >= 100) {
			t.Fatalf("key %d after Touch: id %d fresh %v", i, id, fresh)
		}
	}
}

// TestStoreGrowsInSmallSteps interns a million states and checks that no
// one insertion grows the store by more than a sixteenth of what it holds
// (once it holds a few pages): what an insertion allocates at once lands
// beyond a search's --memory before the search can look. Before, the one
// slot table doubled at once, adding a third of the store.
func TestStoreGrowsInSmallSteps(t *testing.T) {
	s := NewStore(8)
	key := make([]byte, 8)
	prev := s.Bytes()
	for i := range 1 << 20 {
		h := uint64(i+1) * 0x9e37_79b9_7f4a_7c15
		key[0], key[1], key[2] = byte(i), byte(i>>8), byte(i>>16)
		s.Intern(key, h)
		now := s.Bytes()
		if step := now - prev; prev > 1<<20 && step > prev/16 {
			t.Fatalf("state %d: the store grew from %d to %d bytes at once", i, prev, now)
		}
		prev = now
	}
	if s.Len() != 1<<20 || prev < 16<<20 { // 8-byte keys, 8-byte hashes and the slots
		t.Fatalf("%d states in %d bytes", s.Len(), prev)
	}
}

// TestStoreResetKeys reuses a store for keys of other sizes, shorter and
// longer than the first: each round's keys get ids from 0 and read back
// whole from the pages kept or made anew.
func TestStoreResetKeys(t *testing.T) {
	s := NewStore(4)
	for round, size := range []int{4, 3, 6, 2} {
		s.ResetKeys(size)
		key := func(i int) []byte {
			k := make([]byte, size)
			k[0], k[1], k[size-1] = byte(i), byte(i>>8), byte(round)
			return k
		}
		hash := func(i int) uint64 { return uint64(i+1) * 0x9e37_79b9_7f4a_7c15 }
		for i := range 5000 { // past one page
			if id, fresh := s.Intern(key(i), hash(i)); !fresh || int(id) != i {
				t.Fatalf("round %d, key %d: id %d fresh %v", round, i, id, fresh)
			}
		}
		for i := range 5000 {
			if got := s.Key(uint32(i)); string(got) != string(key(i)) {
				t.Fatalf("round %d, id %d holds %v, want %v", round, i, got, key(i))
			}
		}
		if s.Len() != 5000 {
			t.Fatalf("round %d: Len %d", round, s.Len())
		}
	}
}
