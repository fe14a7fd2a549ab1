package sokoban

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/level"
)

func mustBoard(t testing.TB, l *level.Level) *Board {
	t.Helper()
	b, err := NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tiny levels with their exact number of reachable push-states (distinct box
// sets with the player's region), as counted by bruteForceStates.
var tiny = []struct {
	name   string
	rows   []string
	states int
}{
	{"corridor", []string{
		"#######",
		"#@ $ .#",
		"#######",
	}, 3},
	{"room1", []string{
		"#####",
		"#@  #",
		"# $ #",
		"#  .#",
		"#####",
	}, 9},
	{"room2", []string{
		"######",
		"#@   #",
		"# $$ #",
		"#  ..#",
		"######",
	}, 61},
	{"microban1", []string{
		"####",
		"# .#",
		"#  ###",
		"#*@  #",
		"#  $ #",
		"#  ###",
		"####",
	}, 56},
	{"pillar", []string{
		"#######",
		"#.  $ #",
		"# # # #",
		"#@$  .#",
		"#######",
	}, 16},
}

// bruteForceStates explores raw states (player cell, box cells) move by
// move on the text grid, without any of the core's tables, and returns the
// number of distinct (box set, player region) classes reached.
func bruteForceStates(l *level.Level) int {
	w, h := l.Width, l.Height
	wall := func(c int) bool { return l.Rows[c/w][c%w] == '#' }
	var boxes []int
	player := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			switch l.Rows[y][x] {
			case '$', '*':
				boxes = append(boxes, y*w+x)
			case '@', '+':
				player = y*w + x
			}
		}
	}
	type raw struct {
		player int
		boxes  string
	}
	enc := func(bs []int) string {
		s := slices.Clone(bs)
		slices.Sort(s)
		var b strings.Builder
		for _, v := range s {
			b.WriteString(string(rune(v + 1)))
		}
		return b.String()
	}
	dec := func(s string) []int {
		var bs []int
		for _, r := range s {
			bs = append(bs, int(r)-1)
		}
		return bs
	}
	deltas := []int{-w, w, -1, 1}
	seen := map[raw]bool{}
	start := raw{player, enc(boxes)}
	queue := []raw{start}
	seen[start] = true
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		bs := dec(st.boxes)
		for _, d := range deltas {
			to := st.player + d
			if wall(to) {
				continue
			}
			nb := slices.Clone(bs)
			if i := slices.Index(nb, to); i >= 0 {
				beyond := to + d
				if wall(beyond) || slices.Contains(nb, beyond) {
					continue
				}
				nb[i] = beyond
			}
			n := raw{to, enc(nb)}
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	// Group raw states by box set and the smallest cell of the player's region.
	classes := map[raw]bool{}
	for st := range seen {
		bs := dec(st.boxes)
		region := map[int]bool{st.player: true}
		stack := []int{st.player}
		low := st.player
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			low = min(low, c)
			for _, d := range deltas {
				n := c + d
				if !wall(n) && !region[n] && !slices.Contains(bs, n) {
					region[n] = true
					stack = append(stack, n)
				}
			}
		}
		classes[raw{low, st.boxes}] = true
	}
	return len(classes)
}

// coreStates counts reachable push-states with the core's push generation.
func coreStates(b *Board) int {
	p := b.Start()
	store := NewStore(b.KeySize())
	store.Intern(p.Pack(nil), p.Hash())
	var pushes []Push
	for id := uint32(0); int(id) < store.Len(); id++ {
		p.Unpack(store.Key(id))
		pushes = p.Pushes(pushes[:0], nil)
		for _, m := range pushes {
			p.Apply(m)
			store.Intern(p.Pack(nil), p.Hash())
			p.Undo(m)
		}
	}
	return store.Len()
}

func TestReachableStateCounts(t *testing.T) {
	for _, tc := range tiny {
		t.Run(tc.name, func(t *testing.T) {
			l := testlevel.Grid(tc.rows...)
			want := bruteForceStates(l)
			got := coreStates(mustBoard(t, l))
			if got != want {
				t.Fatalf("core counts %d push-states, brute force %d", got, want)
			}
			if got != tc.states {
				t.Fatalf("got %d push-states, known answer %d", got, tc.states)
			}
			t.Logf("%s: %d push-states", tc.name, got)
		})
	}
}

// recomputed hashes a position from scratch.
func recomputed(p *Position) uint64 {
	var h uint64
	for _, s := range p.boxes {
		h ^= p.b.zBox[s]
	}
	return h ^ p.b.zPlayer[p.Reach()]
}

func TestIncrementalHashAndUndo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tiny {
		b := mustBoard(t, testlevel.Grid(tc.rows...))
		p := b.Start()
		startKey := p.Pack(nil)
		var stack []Push
		for step := 0; step < 2000; step++ {
			pushes := p.Pushes(nil, nil)
			if len(pushes) == 0 || rng.IntN(4) == 0 && len(stack) > 0 {
				if len(stack) == 0 {
					continue
				}
				p.Undo(stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			} else {
				m := pushes[rng.IntN(len(pushes))]
				p.Apply(m)
				stack = append(stack, m)
			}
			if p.Hash() != recomputed(p) {
				t.Fatalf("%s step %d: incremental hash differs from recomputed", tc.name, step)
			}
			q := b.Start()
			q.Unpack(p.Pack(nil))
			if q.Hash() != p.Hash() || !slices.Equal(q.Pack(nil), p.Pack(nil)) || q.OnGoal() != p.OnGoal() {
				t.Fatalf("%s step %d: pack/unpack does not round-trip", tc.name, step)
			}
		}
		for len(stack) > 0 {
			p.Undo(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		if !slices.Equal(p.Pack(nil), startKey) {
			t.Fatalf("%s: undoing every push does not restore the start", tc.name)
		}
	}
}

func TestUnreachableBoxesOnGoals(t *testing.T) {
	l := testlevel.Grid(
		"#######",
		"#@$ .##",
		"#######",
		"#*#*  #",
		"#######",
	)
	b := mustBoard(t, l)
	if b.Fixed != 2 || b.Boxes() != 1 || b.Impossible != "" {
		t.Fatalf("Fixed=%d Boxes=%d Impossible=%q; want 2, 1, none", b.Fixed, b.Boxes(), b.Impossible)
	}
	off := testlevel.Grid(
		"#######",
		"#@$ .##",
		"#######",
		"#$#.  #",
		"#######",
	)
	if b := mustBoard(t, off); b.Impossible == "" {
		t.Fatal("a box that can never be reached off its goal must make the level impossible")
	}
}

func TestExpandWalksToEachPush(t *testing.T) {
	b := mustBoard(t, testlevel.Grid(tiny[1].rows...))
	// room1: push the box right, then down onto the goal.
	pushes := []Push{{Box: b.At(2, 2), Dir: level.Right}, {Box: b.At(3, 2), Dir: level.Down}}
	moves, err := b.Expand(pushes)
	if err != nil {
		t.Fatal(err)
	}
	if got := level.FormatLURD(moves); got != "dRurD" {
		t.Fatalf("expanded moves %q, want dRurD", got)
	}
	if _, err := b.Expand([]Push{{Box: b.At(3, 3), Dir: level.Up}}); err == nil {
		t.Fatal("a push of a square without a box must be an error")
	}
}

// bruteDistance is a slow obvious push distance: BFS over (box, player) cells
// pushing a lone box on the text grid.
func bruteDistance(l *level.Level, from, goal int) int {
	w := l.Width
	wall := func(c int) bool { return l.Rows[c/w][c%w] == '#' }
	type st struct{ box, player int }
	deltas := []int{-w, w, -1, 1}
	best := -1
	dist := map[st]int{}
	var queue []st
	for _, d := range deltas {
		if s := (st{from, from - d}); !wall(s.player) {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.box == goal && (best < 0 || dist[s] < best) {
			best = dist[s]
		}
		for _, d := range deltas {
			n := s.player + d
			if wall(n) {
				continue
			}
			ns, cost := st{s.box, n}, 0
			if n == s.box {
				if wall(s.box + d) {
					continue
				}
				ns, cost = st{s.box + d, n}, 1
			}
			if old, ok := dist[ns]; ok && old <= dist[s]+cost {
				continue
			}
			dist[ns] = dist[s] + cost
			if cost == 0 {
				queue = append([]st{ns}, queue...)
			} else {
				queue = append(queue, ns)
			}
		}
	}
	return best
}

func TestPullDistancesAgainstBruteForce(t *testing.T) {
	for _, tc := range tiny {
		l := testlevel.Grid(tc.rows...)
		b := mustBoard(t, l)
		dist, err := b.PullDistances(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for gi, g := range b.Goals() {
			gx, gy := b.XY(g)
			for s := Square(0); int(s) < b.N; s++ {
				x, y := b.XY(s)
				want := bruteDistance(l, y*l.Width+x, gy*l.Width+gx)
				got := dist[gi][s]
				if want < 0 && got != Unreachable || want >= 0 && got != int32(want) {
					t.Fatalf("%s: distance from (%d,%d) to goal (%d,%d) = %d, brute force %d", tc.name, x, y, gx, gy, got, want)
				}
			}
		}
	}
}

func TestRowsRedrawsTheLevel(t *testing.T) {
	for _, tc := range tiny {
		l := testlevel.Grid(tc.rows...)
		b := mustBoard(t, l)
		if got := b.Start().Rows(); !slices.Equal(got, l.Rows) {
			t.Fatalf("%s: start position drawn as\n%s", tc.name, strings.Join(got, "\n"))
		}
	}
	b := mustBoard(t, testlevel.Grid(tiny[1].rows...))
	p := b.Start()
	p.Apply(Push{Box: b.At(2, 2), Dir: level.Right})
	want := []string{"#####", "#   #", "# @$#", "#  .#", "#####"}
	if got := p.Rows(); !slices.Equal(got, want) {
		t.Fatalf("after a push:\n%s", strings.Join(got, "\n"))
	}
}

func TestSplits(t *testing.T) {
	// The corridor's middle square splits the board; a square of the open
	// room does not, and neither does one of a corridor with a way around.
	b := mustBoard(t, testlevel.Grid(
		"#########",
		"#@ $ .  #",
		"#### ## #",
		"#       #",
		"#########",
	))
	if !b.Splits(b.At(2, 1), level.Right) {
		t.Error("the top-left corridor square should split the board")
	}
	if b.Splits(b.At(6, 1), level.Right) {
		t.Error("(6,1) has a way around through the bottom row")
	}
	room := mustBoard(t, testlevel.Grid(tiny[1].rows...))
	if room.Splits(room.At(2, 2), level.Right) {
		t.Error("the open room's centre does not split it")
	}
}

// slowSideLinks is sideLinks done the obvious way: for every square, flood
// the board from each neighbour with the square blocked.
func slowSideLinks(b *Board) []int8 {
	links := make([]int8, b.N*4)
	for s := Square(0); int(s) < b.N; s++ {
		label := make([]int8, b.N)
		for i := range label {
			label[i] = -1
		}
		for d := range Dirs {
			start := b.Next(s, d)
			links[int(s)*4+int(d)] = -1
			if start < 0 {
				continue
			}
			if label[start] < 0 {
				stack := []Square{start}
				label[start] = int8(d)
				for len(stack) > 0 {
					c := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					for e := range Dirs {
						if n := b.Next(c, e); n >= 0 && n != s && label[n] < 0 {
							label[n] = int8(d)
							stack = append(stack, n)
						}
					}
				}
			}
			links[int(s)*4+int(d)] = label[start]
		}
	}
	return links
}

// TestSideLinksAgainstFloodFill compares the one-pass articulation labels
// with flood fills on the tiny levels, on Microban and on random boards
// full of walls, pillars and corridors.
func TestSideLinksAgainstFloodFill(t *testing.T) {
	var ls []*level.Level
	for _, tc := range tiny {
		ls = append(ls, testlevel.Grid(tc.rows...))
	}
	ls = append(ls, testlevel.Resolve(t, "microban:1-40")...)
	rng := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		w, h := 3+rng.IntN(12), 3+rng.IntN(10)
		rows := make([]string, h)
		for y := range rows {
			r := []byte(strings.Repeat("#", w))
			for x := 1; x < w-1 && y > 0 && y < h-1; x++ {
				if rng.IntN(10) < 7 {
					r[x] = ' '
				}
			}
			rows[y] = string(r)
		}
		r := []byte(rows[h/2])
		r[w/2] = '@'
		rows[h/2] = string(r)
		ls = append(ls, testlevel.Grid(rows...))
	}
	for i, l := range ls {
		b := mustBoard(t, l)
		if got, want := b.sideLinks(), slowSideLinks(b); !slices.Equal(got, want) {
			t.Fatalf("level %d (%s):\n%s\nlinks %v\nwant  %v", i, l.Name(), strings.Join(l.Rows, "\n"), got, want)
		}
	}
}

func TestPullDistancesStopsWhenCancelled(t *testing.T) {
	b := mustBoard(t, testlevel.Open(128, 128, 40))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if dist, err := b.PullDistances(ctx); err != context.Canceled || dist != nil {
		t.Fatalf("cancelled: %d rows, error %v", len(dist), err)
	}
	if got, want := b.PullBytes(), int64(4*40*126*126); got != want {
		t.Errorf("PullBytes = %d, want %d", got, want)
	}
}

// TestNearestGoal compares the one search from every goal with the minimum
// over the per-goal distances.
func TestNearestGoal(t *testing.T) {
	var ls []*level.Level
	for _, tc := range tiny {
		ls = append(ls, testlevel.Grid(tc.rows...))
	}
	ls = append(ls, testlevel.Resolve(t, "microban:1-40")...)
	for _, l := range ls {
		b := mustBoard(t, l)
		dist, err := b.PullDistances(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		near := b.NearestGoal()
		if len(near) != b.N {
			t.Fatalf("%s: %d distances for %d squares", l.Name(), len(near), b.N)
		}
		for s := range near {
			want := Unreachable
			for _, row := range dist {
				want = min(want, row[s])
			}
			if near[s] != want {
				x, y := b.XY(Square(s))
				t.Fatalf("%s: (%d,%d): nearest goal %d pushes away, per-goal minimum %d", l.Name(), x, y, near[s], want)
			}
		}
	}
}

func TestStep(t *testing.T) {
	b := mustBoard(t, testlevel.Parse(t, "#######\n# @$$.#\n#  $ .#\n#    .#\n#######\n"))
	p := b.Start()
	player := p.Player()
	for _, tc := range []struct {
		d        Dir
		to       Square
		push, ok bool
	}{
		{level.Up, None, false, false},                        // a wall
		{level.Left, b.Next(player, level.Left), false, true}, // a walk
		{level.Right, None, true, false},                      // a box with a box beyond
		{level.Down, b.Next(player, level.Down), false, true},
	} {
		to, push, ok := p.Step(tc.d)
		if ok != tc.ok || ok && (to != tc.to || push != tc.push) {
			t.Errorf("Step(%d) = %d, %v, %v; want %d, %v, %v", tc.d, to, push, ok, tc.to, tc.push, tc.ok)
		}
	}
	p.SetPlayer(b.At(4, 2))
	if to, push, ok := p.Step(level.Left); !ok || !push || to != b.At(3, 2) {
		t.Errorf("Step(Left) beside the box = %d, %v, %v; want %d, true, true", to, push, ok, b.At(3, 2))
	}
	p.SetPlayer(b.At(3, 3))
	if _, push, ok := p.Step(level.Up); ok || !push {
		t.Errorf("Step(Up) under the box with a box beyond = %v, %v; want a push that cannot be made", push, ok)
	}
	if p.Player() != b.At(3, 3) {
		t.Errorf("Step moved the player")
	}
}

// TestSet checks that Set copies a position: a moved one made a copy of
// the start packs, hashes and reaches as the start does.
func TestSet(t *testing.T) {
	b := mustBoard(t, testlevel.Grid(tiny[1].rows...))
	start, p := b.Start(), b.Start()
	p.Apply(p.Pushes(nil, nil)[0])
	p.Set(start)
	if !slices.Equal(p.Pack(nil), start.Pack(nil)) || p.HashExact() != start.HashExact() || p.Reach() != start.Reach() || p.OnGoal() != start.OnGoal() {
		t.Fatalf("after Set:\n%s\nwant:\n%s", strings.Join(p.Rows(), "\n"), strings.Join(start.Rows(), "\n"))
	}
}
