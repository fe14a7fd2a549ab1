// Package chunked holds Slice, an append-only sequence kept in chunks of a
// fixed size. Growing it never moves what it holds: a search that appends
// millions of nodes to a plain slice spends a tenth of its time copying the
// slice and faulting in the pages of each larger copy (the profile of fess
// on XSokoban 41, where growslice took 1.2 s of 10), and the pointers At
// returns stay valid across appends.
package chunked

import "unsafe"

// chunkBits sets the chunk size: 8192 elements.
const chunkBits = 13

const chunkLen = 1 << chunkBits

// Slice is an append-only sequence of T. The zero value is empty and ready
// to use.
type Slice[T any] struct {
	chunks [][]T
	n      int
}

// Len returns the number of elements.
func (s *Slice[T]) Len() int { return s.n }

// Append adds v at the end.
func (s *Slice[T]) Append(v T) {
	if s.n&(chunkLen-1) == 0 && s.n>>chunkBits == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, chunkLen))
	}
	s.chunks[s.n>>chunkBits][s.n&(chunkLen-1)] = v
	s.n++
}

// Reset empties the slice and keeps its chunks for what is appended next.
func (s *Slice[T]) Reset() { s.n = 0 }

// At returns a pointer to element i, which stays valid as the slice grows.
// It panics when i is out of range, as indexing a slice does.
func (s *Slice[T]) At(i int) *T {
	if uint(i) >= uint(s.n) {
		panic("chunked: index out of range")
	}
	return &s.chunks[i>>chunkBits][i&(chunkLen-1)]
}

// Cap returns the number of elements the chunks allocated so far can hold.
func (s *Slice[T]) Cap() int { return len(s.chunks) * chunkLen }

// Bytes returns the memory the slice holds: its chunks and their index.
func (s *Slice[T]) Bytes() int64 {
	var zero T
	return int64(s.Cap())*int64(unsafe.Sizeof(zero)) + int64(cap(s.chunks))*int64(unsafe.Sizeof([]T(nil)))
}
