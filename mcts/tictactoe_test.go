package mcts_test

import (
	"fmt"
	"math/rand/v2"

	"soko/mcts"
)

// tttBoard is a Tic-Tac-Toe position: cells 0–8 row by row, 0 empty, 1 X,
// 2 O, and the player to move.
type tttBoard struct {
	cell [9]int8
	turn int8
}

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// winner returns 1 or 2 for a completed line, 3 for a draw, 0 otherwise.
func (b *tttBoard) winner() int8 {
	for _, l := range lines {
		if c := b.cell[l[0]]; c != 0 && c == b.cell[l[1]] && c == b.cell[l[2]] {
			return c
		}
	}
	for _, c := range b.cell {
		if c == 0 {
			return 0
		}
	}
	return 3
}

func (b *tttBoard) play(i int) {
	b.cell[i] = b.turn
	b.turn = 3 - b.turn
}

// ticTacToe is the MDP of 000 Appendix B as an mcts.Game: a state is a
// board, an action marks an empty cell, a rollout plays random moves to the
// end. A node's value is from the side of the player who moved into it: 1
// for a win, −1 for a loss, 0 for a draw; the loop negates it at every level
// up (Appendix B.2).
type ticTacToe struct {
	root, pos tttBoard
	rng       *rand.Rand
}

func (g *ticTacToe) Reset() { g.pos = g.root }

func (g *ticTacToe) Play(t *mcts.Tree, x int32) { g.pos.play(int(t.Move(x))) }

func (g *ticTacToe) Expand(t *mcts.Tree, x int32) bool {
	t.MarkExpanded(x)
	if g.pos.winner() != 0 {
		return false // terminal: no children; the loop evaluates it again
	}
	for i, c := range g.pos.cell {
		if c == 0 {
			t.Add(x, uint32(i), 0)
		}
	}
	return false
}

func (g *ticTacToe) Evaluate(t *mcts.Tree, x int32) (float64, bool) {
	mover := 3 - g.pos.turn // the player who moved into x
	b := g.pos
	for b.winner() == 0 {
		var free []int
		for i, c := range b.cell {
			if c == 0 {
				free = append(free, i)
			}
		}
		b.play(free[g.rng.IntN(len(free))])
	}
	switch w := b.winner(); {
	case w == 3:
		return 0, false
	case w == mover:
		return 1, false
	default:
		return -1, false
	}
}

// bestMove runs a fresh search from b and returns the most visited root
// child's move (Appendix B.1).
func bestMove(b tttBoard, iterations int, seed uint64) int {
	g := &ticTacToe{root: b, rng: rand.New(rand.NewPCG(seed, 1))}
	t := mcts.NewTree(0)
	s := mcts.NewSearch(t, g, seed)
	s.C, s.Negate = 1, true
	for range iterations {
		s.Iterate()
	}
	best, most := -1, -1
	for y := t.First(mcts.Root); y != mcts.None; y = t.Next(y) {
		if t.Visits(y) > most {
			best, most = int(t.Move(y)), t.Visits(y)
		}
	}
	return best
}

// Example_ticTacToe runs the generic MCTS core on Tic-Tac-Toe, as 000
// Appendix B does by hand, with two players and negated backup. Playing
// either side against a random player, it never loses.
func Example_ticTacToe() {
	rng := rand.New(rand.NewPCG(2024, 7))
	var won, drawn, lost int
	for game := range 200 {
		b := tttBoard{turn: 1}
		agent := int8(1 + game%2) // X in even games, O in odd ones
		for b.winner() == 0 {
			if b.turn == agent {
				b.play(bestMove(b, 1000, uint64(game)))
				continue
			}
			var free []int
			for i, c := range b.cell {
				if c == 0 {
					free = append(free, i)
				}
			}
			b.play(free[rng.IntN(len(free))])
		}
		switch w := b.winner(); {
		case w == agent:
			won++
		case w == 3:
			drawn++
		default:
			lost++
		}
	}
	fmt.Printf("lost %d of 200 games to a random player\n", lost)
	fmt.Println(won > 150)
	// Output:
	// lost 0 of 200 games to a random player
	// true
}
