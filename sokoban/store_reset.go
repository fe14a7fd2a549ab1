package sokoban

// Reset empties the store and keeps its memory for the states to come, so
// that a caller running many short searches does not allocate a new table
// for each.
func (s *Store) Reset() {
	s.n = 0
	for i := range s.parts {
		clear(s.parts[i].slots)
		s.parts[i].n = 0
	}
}
