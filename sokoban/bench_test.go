package sokoban_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// boards returns the boards of the levels spec names (testlevel.Resolve).
func boards(t testing.TB, spec string) []*sokoban.Board {
	t.Helper()
	var bs []*sokoban.Board
	for _, l := range testlevel.Resolve(t, spec) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	return bs
}

// BenchmarkPushGeneration walks randomly through Microban positions; each
// step is one reachability flood fill plus push generation, then one push
// applied. It reports generated pushes per second.
func BenchmarkPushGeneration(b *testing.B) { benchPushes(b, "microban:1-50") }

// BenchmarkPushGenerationXSokoban is BenchmarkPushGeneration on the 90
// XSokoban levels: bigger boards (more than 256 squares on most, so two-byte
// keys) and more boxes.
func BenchmarkPushGenerationXSokoban(b *testing.B) { benchPushes(b, "xsokoban90") }

func benchPushes(b *testing.B, spec string) {
	var generated int
	randomWalk(b, boards(b, spec), func(_ int, p *sokoban.Position, pushes []sokoban.Push) []sokoban.Push {
		pushes = p.Pushes(pushes, nil)
		generated += len(pushes)
		return pushes
	})
	b.ReportMetric(float64(generated)/b.Elapsed().Seconds(), "pushes/s")
}

// randomWalk walks through positions of boards while the benchmark loops:
// one step a loop, visit appending the pushes of the position (of board i)
// to the slice it is given, then one of them, drawn at random, applied;
// after 40 pushes, or none to make, the next board's start.
func randomWalk(b *testing.B, boards []*sokoban.Board, visit func(i int, p *sokoban.Position, pushes []sokoban.Push) []sokoban.Push) {
	positions := make([]*sokoban.Position, len(boards))
	for i, bd := range boards {
		positions[i] = bd.Start()
	}
	rng := rand.New(rand.NewPCG(7, 7))
	pushes := make([]sokoban.Push, 0, 64)
	depth, i := 0, 0
	for b.Loop() {
		p := positions[i]
		pushes = visit(i, p, pushes[:0])
		if len(pushes) == 0 || depth == 40 {
			positions[i] = boards[i].Start()
			i = (i + 1) % len(boards)
			depth = 0
			continue
		}
		p.Apply(pushes[rng.IntN(len(pushes))])
		depth++
	}
}

// BenchmarkStore interns every push-state reachable on Microban levels (up
// to a cap) and reports the store's bytes per state.
func BenchmarkStore(b *testing.B) { benchStore(b, "microban:1-20", 200000) }

// BenchmarkStoreXSokoban is BenchmarkStore on XSokoban 1–10, whose state
// spaces pass any cap: the first 20,000 states of each, breadth first.
func BenchmarkStoreXSokoban(b *testing.B) { benchStore(b, "xsokoban90:1-10", 20000) }

func benchStore(b *testing.B, spec string, limit int) {
	boards := boards(b, spec)
	var states, bytes int64
	for b.Loop() {
		states, bytes = 0, 0
		for _, bd := range boards {
			p := bd.Start()
			st := sokoban.NewStore(bd.KeySize())
			key := p.Pack(nil)
			st.Intern(key, p.Hash())
			var pushes []sokoban.Push
			for id := uint32(0); int(id) < st.Len() && st.Len() < limit; id++ {
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

// BenchmarkStoreBatch interns batches of 100 keys, half of them stored
// already, into a store of two million states (a table far larger than the
// caches, as in a long search), one at a time ("plain") or after a Touch of
// the batch's hashes ("touched"), and reports the time per key.
func BenchmarkStoreBatch(b *testing.B) {
	const size, stored, batch = 18, 2_000_000, 100
	key := func(k []byte, i uint64) []byte {
		for j := range k {
			k[j] = byte(i >> (j % 8 * 8))
		}
		k[size-1] = byte(i % 251)
		return k
	}
	hash := func(i uint64) uint64 { h := (i + 1) * 0x9e37_79b9_7f4a_7c15; return h ^ h>>31 }
	for _, touch := range []bool{false, true} {
		name := "plain"
		if touch {
			name = "touched"
		}
		b.Run(name, func(b *testing.B) {
			st := sokoban.NewStore(size)
			for i := range uint64(stored) {
				st.Intern(key(make([]byte, size), i), hash(i))
			}
			keys := make([][]byte, batch)
			for j := range keys {
				keys[j] = make([]byte, size)
			}
			hashes := make([]uint64, batch)
			next, n := uint64(stored), 0
			x := uint64(1)
			for b.Loop() {
				for j := range batch {
					var i uint64
					if j%2 == 0 {
						x = x*6364136223846793005 + 1442695040888963407
						i = x >> 33 % stored
					} else {
						i = next
						next++
					}
					key(keys[j], i)
					hashes[j] = hash(i)
				}
				if touch {
					st.Touch(hashes)
				}
				for j := range batch {
					st.Intern(keys[j], hashes[j])
				}
				n += batch
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/key")
		})
	}
}

// BenchmarkRegion walks randomly through XSokoban positions; each step
// numbers the player's region (Region.Of) and asks After for the
// canonical player square of every push's child, as the searches do. It
// reports the positions per second.
func BenchmarkRegion(b *testing.B) {
	boards := boards(b, "xsokoban90:1-30")
	regions := make([]*sokoban.Region, len(boards))
	for i, bd := range boards {
		regions[i] = sokoban.NewRegion(bd)
	}
	var steps, known int
	randomWalk(b, boards, func(i int, p *sokoban.Position, pushes []sokoban.Push) []sokoban.Push {
		r := regions[i]
		r.Of(p)
		pushes = p.Pushes(pushes, nil)
		for _, m := range pushes {
			to := p.Apply(m)
			if _, ok := r.After(p, m.Box, to); ok {
				known++
			}
			p.Undo(m)
		}
		steps++
		return pushes
	})
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(known)/float64(steps), "known/position")
}
