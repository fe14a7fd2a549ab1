package sokoban

// Reset empties the store and keeps its memory for the states to come, so
// that a caller running many short searches does not allocate a new table
// for each.
func (s *Store) Reset() { s.ResetKeys(s.stride) }

// ResetKeys is Reset for keys of keySize bytes from now on: the pages of
// keys are kept where they hold pages of the new size.
func (s *Store) ResetKeys(keySize int) {
	s.stride, s.n = keySize, 0
	for i, page := range s.keys {
		if cap(page) < pageLen*keySize {
			s.keys, s.hashes = s.keys[:i], s.hashes[:i]
			break
		}
		s.keys[i] = page[:pageLen*keySize]
	}
	for i := range s.parts {
		clear(s.parts[i].slots)
		s.parts[i].n = 0
	}
}
