package deadlock

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
	"soko/levels"
	"soko/sokoban"
)

// relaxedSolvable decides, by a plain forward breadth-first search over
// pushes, whether the boxes alone (no others on the board) can all be
// pushed onto goals of their own with the player starting on player: the
// slow, obvious version of the table. With pulls it decides instead, over
// pulls, whether they can all be pulled onto start squares of their own:
// the slow version of the start table.
func relaxedSolvable(b *sokoban.Board, boxes []sokoban.Square, player sokoban.Square, pulls bool) bool {
	target := make([]bool, b.N)
	for _, s := range b.Goals() {
		target[s] = !pulls
	}
	for _, s := range b.Start().BoxSquares() {
		target[s] = target[s] || pulls
	}
	type state struct {
		boxes  [maxTableBoxes]sokoban.Square
		player sokoban.Square // the least square of the player's region
	}
	k := len(boxes)
	occ := make([]bool, b.N)
	region := func(boxes []sokoban.Square, from sokoban.Square) []bool {
		for _, s := range boxes {
			occ[s] = true
		}
		in := make([]bool, b.N)
		in[from] = true
		stack := []sokoban.Square{from}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range b.Neighbours(s) {
				if n >= 0 && !occ[n] && !in[n] {
					in[n] = true
					stack = append(stack, n)
				}
			}
		}
		for _, s := range boxes {
			occ[s] = false
		}
		return in
	}
	least := func(in []bool) sokoban.Square { return sokoban.Square(slices.Index(in, true)) }
	var start state
	copy(start.boxes[:], boxes)
	slices.Sort(start.boxes[:k])
	start.player = least(region(boxes, player))
	seen := map[state]bool{start: true}
	queue := []state{start}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		set := st.boxes[:k]
		onTargets := true
		for _, s := range set {
			onTargets = onTargets && target[s]
		}
		if onTargets {
			return true
		}
		in := region(set, st.player)
		for i, s := range set {
			for d := range sokoban.Dirs {
				// A push: the player behind the box follows it onto s. A
				// pull: the player on to steps back onto stand.
				behind, to, stand := b.Next(s, d^1), b.Next(s, d), s
				if pulls {
					if to < 0 {
						continue
					}
					behind, stand = to, b.Next(to, d)
					if stand < 0 || slices.Contains(set, stand) {
						continue
					}
				}
				if behind < 0 || to < 0 || !in[behind] || slices.Contains(set, to) {
					continue
				}
				next := st
				next.boxes[i] = to
				slices.Sort(next.boxes[:k])
				next.player = least(region(next.boxes[:k], stand))
				if !seen[next] {
					seen[next] = true
					queue = append(queue, next)
				}
			}
		}
	}
	return false
}

// TestTableDifferential compares the table, and the start table, with the
// search of the relaxed problem (relaxedSolvable, over pushes and over
// pulls) on random sets of one, two and three boxes (mostly on live
// squares), the player on a random free square, on Microban 1–40: the
// table must call a set dead exactly when the search finds no solution,
// and every set holding a square outside its live squares must have none.
func TestTableDifferential(t *testing.T) {
	ls, err := levels.Resolve("microban:1-40", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, toStart := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(51, 3))
		var checked, dead [maxTableBoxes + 1]int
		for _, l := range ls {
			b, err := sokoban.NewBoard(l)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := newTable(context.Background(), b, TableLimits{Boxes: 3, Bytes: 1 << 30}, toStart)
			if err != nil || tab == nil || tab.Boxes() != 3 {
				t.Fatalf("%s: table %v, err %v", l.Name(), tab, err)
			}
			var live []sokoban.Square
			for s := range sokoban.Square(b.N) {
				if tab.live[s] >= 0 {
					live = append(live, s)
				}
			}
			for range 150 {
				k := 1 + rng.IntN(maxTableBoxes)
				var boxes []sokoban.Square
				for len(boxes) < k {
					s := live[rng.IntN(len(live))]
					if rng.IntN(10) == 0 { // now and then any square
						s = sokoban.Square(rng.IntN(b.N))
					}
					if !slices.Contains(boxes, s) {
						boxes = append(boxes, s)
					}
				}
				player := sokoban.Square(rng.IntN(b.N))
				if slices.Contains(boxes, player) || len(b.Goals()) < k {
					continue
				}
				want := relaxedSolvable(b, boxes, player, toStart)
				var idx []int32
				for _, s := range boxes {
					if tab.live[s] >= 0 {
						idx = append(idx, tab.live[s])
					}
				}
				if len(idx) < k {
					if want {
						t.Fatalf("%s (start table %v): boxes %v with the player on %d can be solved, but a box is off the live squares", l.Name(), toStart, boxes, player)
					}
					continue
				}
				slices.Sort(idx)
				if got := tab.alive(idx, player); got != want {
					t.Fatalf("%s (start table %v): boxes %v, player %d: table says alive %v, the search %v", l.Name(), toStart, boxes, player, got, want)
				}
				checked[k]++
				if !want {
					dead[k]++
				}
			}
		}
		t.Logf("start table %v: sets checked by size %v, of them dead %v", toStart, checked[1:], dead[1:])
		for k := 1; k <= maxTableBoxes; k++ {
			if checked[k] < 200 || dead[k] == 0 || dead[k] == checked[k] {
				t.Errorf("start table %v, %d boxes: %d checked, %d dead: too few, or all one answer", toStart, k, checked[k], dead[k])
			}
		}
	}
}

// TestTableLimits: the sets of k boxes are built only when they fit in the
// byte limit beside the smaller ones, a limit below the single boxes gives
// no table (and a checker whose table detector never fires), and a context
// that has ended stops the set-up with its error.
func TestTableLimits(t *testing.T) {
	ls, err := levels.Resolve("microban:3", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sokoban.NewBoard(ls[0])
	if err != nil {
		t.Fatal(err)
	}
	two, err := NewTable(context.Background(), b, TableLimits{Boxes: 2, Bytes: 1 << 30})
	if err != nil || two.Boxes() != 2 {
		t.Fatalf("pairs: %v, %v", two, err)
	}
	// The search of the triples takes a bit per set and square.
	enough := two.Bytes() + 8*two.count(3)*int64(two.stride)
	if full, err := NewTable(context.Background(), b, TableLimits{Boxes: 3, Bytes: enough}); err != nil || full.Boxes() != 3 {
		t.Fatalf("room for the triples' search: %v, %v", full, err)
	}
	short, err := NewTable(context.Background(), b, TableLimits{Boxes: 3, Bytes: enough - 1})
	if err != nil || short.Boxes() != 2 || short.Bytes() != two.Bytes() {
		t.Fatalf("one byte short of the triples' search: %v, %v", short, err)
	}
	if none, err := NewTable(context.Background(), b, TableLimits{Boxes: 3, Bytes: 8}); none != nil || err != nil {
		t.Fatalf("8 bytes: %v, %v", none, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewTable(ctx, b, TableLimits{Boxes: 3, Bytes: 1 << 30}); err == nil {
		t.Fatal("no error from a cancelled context")
	}
	// The table's dead position of the detector cases, with no room for a table.
	i := slices.IndexFunc(detectorCases, func(c detectorCase) bool { return slices.Equal(c.dead, []Kind{KindTable}) })
	p, s := marked(t, detectorCases[i].rows...)
	c, err := NewCheckerWith(context.Background(), p.Board(), DeadSquares(p.Board()), Detectors{Table: true}, TableLimits{Boxes: 3, Bytes: 8})
	if err != nil || c.Table() != nil || c.Deadlocked(p, s) {
		t.Fatalf("no table: err %v, table %v, or it fired", err, c.Table())
	}
}

// TestTableDeadAfterPush compares DeadAfterPush, which looks only at the
// open sets its lists name, with the slow, obvious check: every set of
// one, two and three boxes on live squares holding the pushed box, each
// looked up. Positions come from random walks of pushes and random
// placings of the boxes on Microban 1–60 and XSokoban 1 and 90 (the last
// with more than 128 live squares).
func TestTableDeadAfterPush(t *testing.T) {
	ls, err := levels.Resolve("microban:1-60", nil)
	if err != nil {
		t.Fatal(err)
	}
	xs, err := levels.Resolve("xsokoban90:1,90", nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 9))
	checks, dead := 0, 0
	wide := false
	for _, l := range append(ls, xs...) {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := NewTable(context.Background(), b, TableLimits{Boxes: 3, Bytes: 1 << 30})
		if err != nil || tab == nil {
			t.Fatalf("%s: table %v, err %v", l.Name(), tab, err)
		}
		wide = wide || tab.Live() > 128
		slow := func(p *sokoban.Position, s sokoban.Square) bool {
			var others []int32
			for _, q := range p.BoxSquares() {
				if q != s && tab.live[q] >= 0 {
					others = append(others, tab.live[q])
				}
			}
			sets := [][]int32{{tab.live[s]}}
			for i, a := range others {
				sets = append(sets, []int32{tab.live[s], a})
				for _, c := range others[:i] {
					sets = append(sets, []int32{tab.live[s], a, c})
				}
			}
			for _, set := range sets {
				if len(set) <= tab.Boxes() {
					slices.Sort(set)
					if !tab.alive(set, p.Player()) {
						return true
					}
				}
			}
			return false
		}
		check := func(p *sokoban.Position, s sokoban.Square, what string) {
			got, want := tab.DeadAfterPush(p, s), slow(p, s)
			if got != want {
				t.Fatalf("%s: %s, box on %d: DeadAfterPush %v, every set looked up %v", l.Name(), what, s, got, want)
			}
			checks++
			if got {
				dead++
			}
		}
		// Random positions: the boxes on random live squares, each in turn
		// the one pushed.
		var live []sokoban.Square
		for s := range sokoban.Square(b.N) {
			if tab.live[s] >= 0 {
				live = append(live, s)
			}
		}
		if b.KeySize() != b.Boxes()+1 {
			t.Fatalf("%s: %d squares: the random positions pack a square in a byte", l.Name(), b.N)
		}
		p := b.Start()
		for range 100 {
			key := make([]byte, 0, b.KeySize())
			for _, i := range rng.Perm(len(live))[:b.Boxes()] {
				key = append(key, byte(live[i]))
			}
			slices.Sort(key)
			free := slices.DeleteFunc(slices.Clone(live), func(s sokoban.Square) bool { return slices.Contains(key, byte(s)) })
			p.Unpack(append(key, byte(free[rng.IntN(len(free))])))
			for _, s := range p.BoxSquares() {
				check(p, s, "a random position")
			}
		}
		for range 20 {
			p := b.Start()
			for range 40 {
				pushes := p.Pushes(nil, nil)
				if len(pushes) == 0 {
					break
				}
				for _, m := range pushes {
					if s := p.Apply(m); tab.live[s] >= 0 {
						check(p, s, "a random walk's push")
					}
					p.Undo(m)
				}
				p.Apply(pushes[rng.IntN(len(pushes))])
			}
		}
	}
	t.Logf("%d checks, %d dead", checks, dead)
	if !wide || dead == 0 || dead == checks {
		t.Errorf("%d checks, %d dead, a board past 128 live squares %v: too few, or all one answer", checks, dead, wide)
	}
}

// TestTableWideBoard: on a board more than 64 columns wide the table's
// search floods square by square rather than a row of cells at a time
// (tableBuilder.flood); both must give the same table. Microban levels
// padded with walls to 100 columns keep their squares' numbers, so the
// two tables must be equal bit for bit.
func TestTableWideBoard(t *testing.T) {
	ls, err := levels.Resolve("microban:1-12", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		var text strings.Builder
		for _, row := range l.Rows {
			text.WriteString(row + strings.Repeat("#", 100-len(row)) + "\n")
		}
		wide := testlevel.Parse(t, text.String())
		if l.Width > 64 || wide.Width <= 64 {
			t.Fatalf("%s: widths %d and %d: one should flood a row at a time, the other square by square", l.Name(), l.Width, wide.Width)
		}
		for _, toStart := range []bool{false, true} {
			var tabs [2]*Table
			for i, lv := range []*level.Level{l, wide} {
				b, err := sokoban.NewBoard(lv)
				if err != nil {
					t.Fatal(err)
				}
				if tabs[i], err = newTable(context.Background(), b, TableLimits{Boxes: 3, Bytes: 1 << 30}, toStart); err != nil || tabs[i] == nil {
					t.Fatalf("%s: table %v, err %v", l.Name(), tabs[i], err)
				}
			}
			for k := range maxTableBoxes {
				a, b := tabs[0].sets[k], tabs[1].sets[k]
				if !slices.Equal(a.open, b.open) || !slices.Equal(a.rows, b.rows) {
					t.Fatalf("%s (start table %v): the sets of %d boxes differ between the two floods", l.Name(), toStart, k+1)
				}
			}
		}
	}
}
