package sokoban

import (
	"slices"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
)

// MostOnGoal keeps the first position with the most boxes on goals, with
// the player where it stood, and draws nothing before an offer.
func TestMostOnGoal(t *testing.T) {
	b := mustBoard(t, testlevel.Grid(
		"#######",
		"#@$ . #",
		"# $ . #",
		"#######",
	))
	m := NewMostOnGoal(b)
	if m.Rows() != nil || m.Caption() != "" {
		t.Fatalf("before an offer: %q, %q", m.Rows(), m.Caption())
	}
	p := b.Start()
	m.Offer(p)
	box := p.Player() + 1
	p.Apply(Push{Box: box, Dir: level.Right})
	p.Apply(Push{Box: box + 1, Dir: level.Right}) // the first box onto its goal
	m.Offer(p)
	want := p.Rows()
	p.SetPlayer(p.Player() - 1) // as many on goals: not kept
	m.Offer(p)
	if got := m.Rows(); !slices.Equal(got, want) || m.Caption() != "boxes on goals 1 of 2" {
		t.Errorf("kept\n%q, %q; want\n%q, boxes on goals 1 of 2", got, m.Caption(), want)
	}
}
