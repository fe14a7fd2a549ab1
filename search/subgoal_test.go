package search

import (
	"context"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
	"soko/solver"
)

// SubGoal's moves are legal and end with exactly one more box on a goal.
func TestSubGoal(t *testing.T) {
	for _, l := range testlevel.Resolve(t, "microban:1-10") {
		res, err := SubGoal(context.Background(), l, solver.Options{})
		if err != nil || res.Status != solver.Solved {
			t.Fatalf("%s: %v %v", l.Name(), res.Status, err)
		}
		b, _ := sokoban.NewBoard(l)
		p := b.Start()
		before := p.OnGoal()
		for i, m := range res.Moves {
			to := b.Next(p.Player(), m.Dir)
			switch {
			case to < 0:
				t.Fatalf("%s: move %d into a wall", l.Name(), i+1)
			case p.HasBox(to):
				if front := b.Next(to, m.Dir); front < 0 || p.HasBox(front) {
					t.Fatalf("%s: move %d pushes a box into a wall or box", l.Name(), i+1)
				}
				p.Apply(sokoban.Push{Box: to, Dir: m.Dir})
			default:
				p.SetPlayer(to)
			}
		}
		if p.OnGoal() != before+1 && !(p.Solved() && before == b.Boxes()) {
			t.Fatalf("%s: %d boxes on goals after the sub-goal, %d before", l.Name(), p.OnGoal(), before)
		}
	}
}
