package deadlock

import (
	"math/rand/v2"
	"slices"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestPullReachMatchesStates: the squares pullReach finds for every goal
// are those of the obvious breadth-first search over (box square, player
// square) states, on XSokoban and Microban boards with random squares
// made walls, as frozen boxes make them.
func TestPullReachMatchesStates(t *testing.T) {
	ls := append(testlevel.Resolve(t, "xsokoban90:1-30"), testlevel.Resolve(t, "microban:120-155")...)
	checked, differ := 0, 0
	for _, l := range ls {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(b.N), 7))
		wall := make([]bool, b.N)
		r := newPullReach(b, wall)
		for trial := range 12 {
			clear(wall)
			for s := range wall {
				wall[s] = trial > 0 && rng.IntN(8) == 0
			}
			r.prepare()
			for _, g := range b.Goals() {
				if wall[g] {
					continue
				}
				got, want := r.from(g), pullStates(b, wall, g)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, trial %d, goal %d: pullReach %v, states %v", l.Name(), trial, g, got, want)
				}
				checked++
				if slices.Index(want, false) >= 0 {
					differ++
				}
			}
		}
	}
	if checked < 1000 || differ == 0 {
		t.Fatalf("%d goals checked, %d with squares unreached", checked, differ)
	}
}

// pullStates is the obvious search: states (box, player), the player
// walking to any free neighbour, or pulling the box when it stands beside
// it, every state's box square reached.
func pullStates(b *sokoban.Board, wall []bool, goal sokoban.Square) []bool {
	n := b.N
	seen := make([]bool, n*n)
	var q []int32
	visit := func(box, player sokoban.Square) {
		if st := int32(box)*int32(n) + int32(player); !seen[st] {
			seen[st] = true
			q = append(q, st)
		}
	}
	free := func(s sokoban.Square) bool { return s != sokoban.None && !wall[s] }
	for d := range sokoban.Dirs {
		if pl := b.Next(goal, d); free(pl) {
			visit(goal, pl)
		}
	}
	reach := make([]bool, n)
	for h := 0; h < len(q); h++ {
		box, pl := sokoban.Square(q[h]/int32(n)), sokoban.Square(q[h]%int32(n))
		reach[box] = true
		for d := range sokoban.Dirs {
			next := b.Next(pl, d)
			if !free(next) {
				continue
			}
			if next != box {
				visit(box, next)
			}
			if b.Next(pl, d^1) == box {
				visit(pl, next)
			}
		}
	}
	return reach
}
