package sokoban_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"soko/internal/testlevel"
	"soko/levels"
	"soko/sokoban"
)

// microbanBoards returns boards of the first n Microban levels.
func microbanBoards(b *testing.B, n int) []*sokoban.Board {
	c, err := levels.Collection("microban")
	if err != nil {
		b.Fatal(err)
	}
	var boards []*sokoban.Board
	for _, l := range c.Levels[:n] {
		bd, err := sokoban.NewBoard(l)
		if err != nil {
			b.Fatal(err)
		}
		boards = append(boards, bd)
	}
	return boards
}

// BenchmarkPushGeneration walks randomly through Microban positions; each
// step is one reachability flood fill plus push generation, then one push
// applied. It reports generated pushes per second.
func BenchmarkPushGeneration(b *testing.B) {
	boards := microbanBoards(b, 50)
	positions := make([]*sokoban.Position, len(boards))
	for i, bd := range boards {
		positions[i] = bd.Start()
	}
	rng := rand.New(rand.NewPCG(7, 7))
	pushes := make([]sokoban.Push, 0, 64)
	var generated, depth int
	i := 0
	for b.Loop() {
		p := positions[i]
		pushes = p.Pushes(pushes[:0], nil)
		generated += len(pushes)
		if len(pushes) == 0 || depth == 40 {
			positions[i] = boards[i].Start()
			i = (i + 1) % len(boards)
			depth = 0
			continue
		}
		p.Apply(pushes[rng.IntN(len(pushes))])
		depth++
	}
	b.ReportMetric(float64(generated)/b.Elapsed().Seconds(), "pushes/s")
}

// BenchmarkStore interns every push-state reachable on Microban levels (up
// to a cap) and reports the store's bytes per state.
func BenchmarkStore(b *testing.B) {
	boards := microbanBoards(b, 20)
	var states, bytes int64
	for b.Loop() {
		states, bytes = 0, 0
		for _, bd := range boards {
			p := bd.Start()
			st := sokoban.NewStore(bd.KeySize())
			key := p.Pack(nil)
			st.Intern(key, p.Hash())
			var pushes []sokoban.Push
			for id := uint32(0); int(id) < st.Len() && st.Len() < 200000; id++ {
				p.Unpack(st.Key(id))
				pushes = p.Pushes(pushes[:0], nil)
				for _, m := range pushes {
					p.Apply(m)
					key = p.Pack(key[:0])
					st.Intern(key, p.Hash())
					p.Undo(m)
				}
			}
			states += int64(st.Len())
			bytes += st.Bytes()
		}
	}
	b.ReportMetric(float64(bytes)/float64(states), "bytes/state")
	b.ReportMetric(float64(states), "states")
}

// BenchmarkSetUpOpen128 builds the board, the pull distances and the side
// links of the largest open board (128×128, 15,876 squares), which took
// seconds when the side links flooded the board once per square.
func BenchmarkSetUpOpen128(b *testing.B) {
	l := testlevel.Open(128, 128, 4)
	for b.Loop() {
		bd, err := sokoban.NewBoard(l)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bd.PullDistances(context.Background()); err != nil {
			b.Fatal(err)
		}
		bd.Splits(0, 0)
	}
}
