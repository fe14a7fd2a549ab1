package mcts

import (
	"math/rand/v2"
	"testing"

	"soko/internal/hashtab"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
)

// BenchmarkStatesSeen compares the two ways of keeping the single-move
// game's states seen: by hash in a hashtab.Set (what moveGame does: its
// nodes are known by their hashes) and by packed position in a
// sokoban.Store. Random walks of 1,000 steps from the start of XSokoban 1;
// each state is looked up, then added when new, as an expansion does. It
// reports the time per state met and the memory per state held.
func BenchmarkStatesSeen(b *testing.B) {
	bd, err := sokoban.NewBoard(testlevel.Resolve(b, "xsokoban90:1")[0])
	if err != nil {
		b.Fatal(err)
	}
	walk := func(b *testing.B, seen func(p *sokoban.Position) (bytes int64, held int)) {
		rng := rand.New(rand.NewPCG(3, 3))
		var dirs []level.Dir
		var bytes int64
		n, held := 0, 0
		for b.Loop() {
			p := bd.Start()
			for range 1000 {
				dirs = legal(p, dirs[:0])
				if len(dirs) == 0 {
					break
				}
				step(p, dirs[rng.IntN(len(dirs))])
				bytes, held = seen(p)
				n++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/state")
		b.ReportMetric(float64(bytes)/float64(held), "bytes/held")
	}
	b.Run("hashtab", func(b *testing.B) {
		set := hashtab.New[struct{}](1 << 12)
		walk(b, func(p *sokoban.Position) (int64, int) {
			if h := p.HashExact(); !set.Has(h) {
				set.Add(h)
			}
			return set.Bytes(), set.Len()
		})
	})
	b.Run("store", func(b *testing.B) {
		store := sokoban.NewStore(bd.KeySize())
		var key []byte
		walk(b, func(p *sokoban.Position) (int64, int) {
			key = p.PackExact(key[:0])
			if _, ok := store.Find(key, p.HashExact()); !ok {
				store.Intern(key, p.HashExact())
			}
			return store.Bytes(), store.Len()
		})
	})
}
