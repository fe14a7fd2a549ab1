package fess

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"soko/internal/testlevel"
	"soko/search"
	"soko/solver"
)

// TestProofsMatchBFS is a differential test of every strategy's "no
// solution" on small random rooms, solvable or not: alone and in the
// default portfolio, a strategy says there is none only where bfs, which
// searches the whole push graph, proves it, and finds (verified) solutions
// only where bfs finds one. The rooms are pulled back from solved
// positions, and half of them have a box moved at random, so both kinds
// come up; the test also asks that the strategies prove most of what bfs
// proves, so that the check has proofs to check.
func TestProofsMatchBFS(t *testing.T) {
	rooms := 200
	if testing.Short() {
		rooms = 60
	}
	rng := rand.New(rand.NewPCG(78, 1))
	var names []string
	for _, s := range strategies {
		names = append(names, s.name)
	}
	names = append(names, "") // the default portfolio
	var bfsProofs, proofs, runs int
	for range rooms {
		text := pulledRoom(rng, 7+rng.IntN(5), 6+rng.IntN(4), 2+rng.IntN(4))
		l := testlevel.Parse(t, text)
		want, err := solver.Run(context.Background(), search.BFS{}, l, solver.Options{Budget: solver.Budget{Time: time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		if want.Status != solver.Solved && want.Status != solver.NoSolution {
			t.Fatalf("bfs on\n%s: %v", text, want.Status)
		}
		for _, name := range names {
			opts := solver.Options{Budget: solver.Budget{Time: 10 * time.Second, Nodes: 200_000}}
			if name != "" {
				opts.Params = map[string]string{"strategies": name}
			}
			res, err := solver.Run(context.Background(), FESS{}, l, opts)
			if err != nil {
				t.Fatalf("%q on\n%s: %v", name, text, err)
			}
			switch {
			case res.Status == solver.NoSolution && want.Status == solver.Solved:
				t.Errorf("%q says no solution on a level bfs solves:\n%s", name, text)
			case res.Status == solver.Solved && want.Status == solver.NoSolution:
				t.Errorf("%q solved a level bfs proves unsolvable:\n%s", name, text)
			}
			if want.Status == solver.NoSolution {
				runs++
				if res.Status == solver.NoSolution {
					proofs++
				}
			}
		}
		if want.Status == solver.NoSolution {
			bfsProofs++
		}
	}
	if bfsProofs < rooms/5 || bfsProofs > rooms*4/5 {
		t.Errorf("bfs proves %d of %d rooms unsolvable: the test needs both kinds", bfsProofs, rooms)
	}
	if proofs < runs/2 {
		t.Errorf("the strategies proved %d of the %d runs on unsolvable rooms: too few to check", proofs, runs)
	}
	t.Logf("%d of %d rooms unsolvable; the strategies proved %d of their %d runs on them", bfsProofs, rooms, proofs, runs)
}

// pulledRoom returns a w×h room with random inner walls and n boxes pulled
// back from their goals by a random walk of the player (so it is
// solvable), and in half the rooms one box then moved to a random floor
// square (so it may not be).
func pulledRoom(rng *rand.Rand, w, h, n int) string {
	grid, free := testlevel.Room(rng, w, h, 6)
	if len(free) < n+1 {
		return pulledRoom(rng, w, h, n)
	}
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	box, goal := map[[2]int]bool{}, map[[2]int]bool{}
	for _, c := range free[:n] {
		box[c], goal[c] = true, true
	}
	p := free[n]
	open := func(c [2]int) bool { return grid[c[1]][c[0]] != '#' && !box[c] }
	for range 200 + rng.IntN(400) {
		d := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}[rng.IntN(4)]
		next := [2]int{p[0] + d[0], p[1] + d[1]}
		if !open(next) {
			continue
		}
		if behind := [2]int{p[0] - d[0], p[1] - d[1]}; box[behind] && rng.IntN(3) > 0 {
			delete(box, behind)
			box[p] = true
		}
		p = next
	}
	if rng.IntN(2) == 0 {
		var boxes [][2]int
		for _, c := range free { // in a fixed order, unlike the map's
			if box[c] {
				boxes = append(boxes, c)
			}
		}
		from, to := boxes[rng.IntN(len(boxes))], free[rng.IntN(len(free))]
		if !box[to] && to != p {
			delete(box, from)
			box[to] = true
		}
	}
	for c := range goal {
		grid[c[1]][c[0]] = '.'
	}
	for c := range box {
		grid[c[1]][c[0]] = map[bool]byte{true: '*', false: '$'}[goal[c]]
	}
	grid[p[1]][p[0]] = map[bool]byte{true: '+', false: '@'}[goal[p]]
	return testlevel.Text(grid)
}
