package sokoban

import (
	"errors"
	"fmt"

	"soko/level"
)

// PushesOf reads a solution as its pushes, up to the first position where
// every box is on a goal.
func (b *Board) PushesOf(moves []level.Move) ([]Push, error) {
	if b.Impossible != "" {
		return nil, errors.New("the level cannot be solved: " + b.Impossible)
	}
	p := b.Start()
	var pushes []Push
	for i, m := range moves {
		if p.Solved() {
			break
		}
		n := b.Next(p.Player(), m.Dir)
		if n == None || m.Dir > level.Right {
			return nil, fmt.Errorf("step %d leaves the floor", i+1)
		}
		if !p.HasBox(n) {
			p.SetPlayer(n)
			continue
		}
		// The player stands behind the box: the push is legal when the
		// square in front is free floor (CanPush would also work out that
		// the player can reach where they stand, a cost on big boards).
		if f := b.Next(n, m.Dir); f == None || p.HasBox(f) {
			return nil, fmt.Errorf("step %d is not a legal push", i+1)
		}
		push := Push{Box: n, Dir: m.Dir}
		p.Apply(push)
		pushes = append(pushes, push)
	}
	if !p.Solved() {
		return nil, errors.New("the solution does not solve the level")
	}
	return pushes, nil
}
