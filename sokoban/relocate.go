package sokoban

// Relocate moves the box on from to the free square to and puts the player
// on player, in one step: the end of a box macro-move (a box pushed along a
// path while the others stay put), whose pushes a search need not replay.
// The caller guarantees that from holds a box, that to is free (or equal to
// from) and that player is free floor.
func (p *Position) Relocate(from, to, player Square) {
	if from != to {
		p.move(from, to)
	}
	p.player = player
	p.fresh = false
}
