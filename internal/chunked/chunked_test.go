package chunked

import "testing"

// TestAgainstSlice appends across several chunk boundaries and checks every
// element against a plain slice, and that pointers taken early survive.
func TestAgainstSlice(t *testing.T) {
	var s Slice[int64]
	var want []int64
	if s.Len() != 0 || s.Cap() != 0 {
		t.Fatalf("zero value: Len %d, Cap %d", s.Len(), s.Cap())
	}
	first := (*int64)(nil)
	for i := range 3*chunkLen + 17 {
		v := int64(i*7919) ^ 0x5a5a
		s.Append(v)
		want = append(want, v)
		if i == 0 {
			first = s.At(0)
		}
	}
	if s.Len() != len(want) {
		t.Fatalf("Len %d, want %d", s.Len(), len(want))
	}
	if s.Cap() != 4*chunkLen {
		t.Fatalf("Cap %d, want %d", s.Cap(), 4*chunkLen)
	}
	for i, v := range want {
		if got := *s.At(i); got != v {
			t.Fatalf("At(%d) = %d, want %d", i, got, v)
		}
	}
	*first = -1
	if *s.At(0) != -1 {
		t.Fatal("a pointer from At did not survive appends")
	}
}

func TestAtOutOfRange(t *testing.T) {
	var s Slice[int]
	s.Append(1)
	for _, i := range []int{-1, 1, chunkLen} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("At(%d) of a 1-element slice did not panic", i)
				}
			}()
			s.At(i)
		}()
	}
}

// TestBytesAndReset: Bytes counts whole chunks and their index, Reset
// empties the slice and keeps its chunks for what comes next.
func TestBytesAndReset(t *testing.T) {
	var s Slice[int32]
	for i := range chunkLen + 1 {
		s.Append(int32(i))
	}
	if got, want := s.Bytes(), int64(2*chunkLen*4+cap(s.chunks)*24); got != want {
		t.Errorf("Bytes %d, want %d", got, want)
	}
	before := s.Bytes()
	s.Reset()
	if s.Len() != 0 || s.Bytes() != before {
		t.Errorf("after Reset: Len %d, Bytes %d; want 0 and %d", s.Len(), s.Bytes(), before)
	}
	s.Append(7)
	if *s.At(0) != 7 || s.Cap() != 2*chunkLen {
		t.Errorf("after Reset and Append: At(0) %d, Cap %d", *s.At(0), s.Cap())
	}
}
