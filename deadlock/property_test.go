package deadlock

import (
	"os"
	"testing"
	"time"

	"soko/internal/stategraph"
	"soko/level"
	"soko/levels"
	"soko/sokoban"
)

// propertyLevels returns small Microban levels whose complete state graphs
// are small enough to build in a test.
func propertyLevels(t *testing.T) []*level.Level {
	spec := "microban:1-60"
	if testing.Short() {
		spec = "microban:1-30"
	}
	ls, err := levels.Resolve(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// TestSoundExhaustive checks every detector on every state of the complete
// state graphs of small Microban levels: a state a detector calls dead,
// after the push that made it or as a whole position, has no solution; and
// the PI-corral pushes of a state keep its optimal distance.
func TestSoundExhaustive(t *testing.T) {
	limit := 20000 // microban:36 (38031 states) takes seconds
	if os.Getenv("SOKO_LONG") != "" {
		limit = 1 << 20
	}
	var graphs, states, fired, checked, piStates, unsolvable int
	var firedBy [NumKinds + 1]int
	var pushFired [NumKinds]uint64
	var frozenFired uint64
	for _, l := range propertyLevels(t) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := DeadSquares(b)
		g := stategraph.Build(b, dead, limit)
		if g == nil {
			continue
		}
		graphs++
		t0 := time.Now()
		c := NewChecker(b, dead, All())
		frozen := NewFrozenGoals(b, dead)
		p := b.Start()
		var pi []sokoban.Square
		for id, key := range g.Keys {
			states++
			if g.Dist[id] < 0 {
				unsolvable++
			}
			p.Unpack(key)
			if k, bad := c.CheckPosition(p); bad {
				firedBy[k]++
				fired++
				if g.Dist[id] >= 0 {
					t.Fatalf("%s: %s calls a solvable position dead:\n%s", l.Name(), k, show(p))
				}
			}
			if frozen.Dead(p) && g.Dist[id] >= 0 {
				t.Fatalf("%s: frozen goals call a solvable position dead:\n%s", l.Name(), show(p))
			}
			// PI-corral: the barrier pushes keep the optimal distance.
			pi = c.Corrals().PICorral(p, pi[:0])
			if len(pi) > 0 && g.Dist[id] > 0 {
				piStates++
				best := int32(-1)
				for i, m := range g.Pushes[id] {
					isBarrier := false
					for _, s := range pi {
						if m.Box == s {
							isBarrier = true
						}
					}
					if d := g.Dist[g.Edges[id][i]]; isBarrier && d >= 0 && (best < 0 || d+1 < best) {
						best = d + 1
					}
				}
				if best != g.Dist[id] {
					t.Fatalf("%s: PI-corral %v loses the optimum (%d, best barrier push %d):\n%s", l.Name(), pi, g.Dist[id], best, show(p))
				}
			}
			for i, m := range g.Pushes[id] {
				to := p.Apply(m)
				checked++
				if k, bad := c.Check(p, to); bad && g.Dist[g.Edges[id][i]] >= 0 {
					t.Fatalf("%s: %s calls a solvable push dead:\n%s", l.Name(), k, show(p))
				}
				p.Undo(m)
			}
		}
		if el := time.Since(t0); el > 200*time.Millisecond {
			t.Logf("%s: %d states, %v", l.Name(), len(g.Keys), el)
		}
		for k := range pushFired {
			pushFired[k] += c.Fired[k]
		}
		frozenFired += frozen.Fired
	}
	t.Logf("%d levels, %d states, %d unsolvable (%d called dead by CheckPosition: %v), %d pushes checked (fired %v), %d states with a PI-corral, %d called dead by frozen goals", graphs, states, unsolvable, fired, firedBy, checked, pushFired, piStates, frozenFired)
	if graphs < 10 {
		t.Fatalf("only %d levels small enough", graphs)
	}
	// Each check above must have had something to check. The wall segment
	// detector finds nothing the cheaper ones have not on boards this small
	// (its own tests give it positions).
	if fired == 0 || piStates == 0 || frozenFired == 0 {
		t.Fatalf("dead positions %d, PI-corral states %d, frozen goals %d: a check never ran", fired, piStates, frozenFired)
	}
	for k, n := range pushFired {
		if n == 0 && Kind(k) != KindWallSegment {
			t.Errorf("%s never fired after a push", Kind(k))
		}
	}
}

// show draws a position as XSB.
func show(p *sokoban.Position) string {
	b := p.Board()
	rows := make([][]byte, len(b.Level.Rows))
	for y, r := range b.Level.Rows {
		rows[y] = []byte(r)
		for x := range rows[y] {
			s := b.At(x, y)
			if s == sokoban.None {
				if rows[y][x] != '#' {
					rows[y][x] = ' '
				}
				continue
			}
			c := byte(' ')
			switch {
			case p.HasBox(s) && b.IsGoal(s):
				c = '*'
			case p.HasBox(s):
				c = '$'
			case s == p.Player() && b.IsGoal(s):
				c = '+'
			case s == p.Player():
				c = '@'
			case b.IsGoal(s):
				c = '.'
			}
			rows[y][x] = c
		}
	}
	var out []byte
	for _, r := range rows {
		out = append(append(out, r...), '\n')
	}
	return string(out)
}

// TestPatternsSound learns patterns from the unsolvable states of the
// complete state graphs of small Microban levels and checks that Learn
// never finds a pattern in a solvable state and that no solvable state
// matches a learned pattern; it also checks that patterns are learned, and
// that a state a pattern was learned from matches it. The deadlock sets
// Seed adds are checked the same way: no solvable state holds one.
func TestPatternsSound(t *testing.T) {
	var graphs, learned, matched, seeded, seedMatched int
	for _, l := range propertyLevels(t) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := DeadSquares(b)
		g := stategraph.Build(b, dead, 20000)
		if g == nil {
			continue
		}
		graphs++
		pt := NewPatterns(b, NewCorrals(b, dead))
		seeds := NewPatterns(b, NewCorrals(b, dead))
		seeded += seeds.Seed(dead, nil)
		p := b.Start()
		for id, key := range g.Keys {
			p.Unpack(key)
			if pt.Learn(p) {
				if g.Dist[id] >= 0 {
					t.Fatalf("%s: a pattern learned in a solvable position:\n%s", l.Name(), show(p))
				}
				if !pt.Match(p) {
					t.Fatalf("%s: the position a pattern was learned from does not match it:\n%s", l.Name(), show(p))
				}
			}
		}
		learned += pt.Len()
		for id, key := range g.Keys {
			p.Unpack(key)
			if pt.Match(p) {
				matched++
				if g.Dist[id] >= 0 {
					t.Fatalf("%s: a solvable position matches a learned pattern:\n%s", l.Name(), show(p))
				}
			}
			if seeds.Match(p) {
				seedMatched++
				if g.Dist[id] >= 0 {
					t.Fatalf("%s: a solvable position holds a deadlock set:\n%s", l.Name(), show(p))
				}
			}
		}
	}
	t.Logf("%d levels, %d patterns learned, %d states match one; %d deadlock sets seeded, %d states hold one", graphs, learned, matched, seeded, seedMatched)
	if learned == 0 || matched == 0 || seeded == 0 || seedMatched == 0 {
		t.Fatal("no pattern learned or matched, or no deadlock set seeded or matched")
	}
}

// TestMustLeaveExhaustive checks FrozenGoals.MustLeave on every state of
// the complete state graphs of small Microban levels: when it says the box
// on goal s must move again, no solution from that state leaves the box on
// s unpushed. Per goal s, the states solvable without pushing s's box are
// found backwards from the solved states over the pushes of other boxes.
func TestMustLeaveExhaustive(t *testing.T) {
	var graphs, said, stay int
	for _, l := range propertyLevels(t) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := DeadSquares(b)
		g := stategraph.Build(b, dead, 20000)
		if g == nil {
			continue
		}
		graphs++
		frozen := NewFrozenGoals(b, dead)
		p := b.Start()
		for _, s := range b.Goals() {
			// still[id]: a solution from id never pushes the box on s.
			still := make([]bool, len(g.Keys))
			rev := make([][]int32, len(g.Keys))
			for id, es := range g.Edges {
				for i, c := range es {
					if g.Pushes[id][i].Box != s {
						rev[c] = append(rev[c], int32(id))
					}
				}
			}
			var queue []int32
			for id := range g.Keys {
				if g.Dist[id] == 0 {
					still[id] = true
					queue = append(queue, int32(id))
				}
			}
			for h := 0; h < len(queue); h++ {
				for _, q := range rev[queue[h]] {
					if !still[q] {
						still[q] = true
						queue = append(queue, q)
					}
				}
			}
			for id, key := range g.Keys {
				p.Unpack(key)
				if g.Dist[id] < 0 || !p.HasBox(s) || frozen.Dead(p) {
					continue
				}
				if still[id] {
					stay++
				}
				if frozen.MustLeave(p, s) {
					said++
					if still[id] {
						t.Fatalf("%s: MustLeave says the box on %d must move, but a solution leaves it:\n%s", l.Name(), s, show(p))
					}
				}
			}
		}
		// Bytes keeps the cache's memory as it goes: the same as a count.
		var held int64
		for _, set := range frozen.sets {
			held += frozen.setBytes(set)
		}
		if frozen.cacheBytes != held {
			t.Fatalf("%s: FrozenGoals counts %d bytes of cache, holds %d", l.Name(), frozen.cacheBytes, held)
		}
	}
	t.Logf("%d levels: %d (state, box on goal) pairs said to move, %d solvable with the box still", graphs, said, stay)
	if said == 0 {
		t.Fatal("MustLeave never fired")
	}
}
