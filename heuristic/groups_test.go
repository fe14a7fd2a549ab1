package heuristic

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"soko/deadlock"
	"soko/internal/stategraph"
	"soko/internal/testlevel"
	"soko/level"
	"soko/sokoban"
)

// groupLevel is a level's board with the dead squares and pull distances
// a group bound is set up from, as the push searches do.
type groupLevel struct {
	board *sokoban.Board
	dead  []bool
	dist  [][]int32
}

// newGroupLevel prepares l for a group bound; false when l is impossible.
func newGroupLevel(t testing.TB, l *level.Level) (*groupLevel, bool) {
	t.Helper()
	b, err := sokoban.NewBoard(l)
	if err != nil {
		t.Fatal(err)
	}
	if b.Impossible != "" {
		return nil, false
	}
	dist, err := b.PullDistances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &groupLevel{board: b, dead: deadlock.DeadSquares(b), dist: dist}, true
}

// newTestGroups prepares a group bound for g whatever it gains at the
// start (nil when the board gives it no two areas with boxes).
func newTestGroups(g *groupLevel) *GroupBound {
	return NewGroupBound(g.board.Start(), g.dead, g.dist, -1)
}

// eachGroupGraph calls check for every Microban level that has a group
// bound and a complete push graph of at most limit states.
func eachGroupGraph(t *testing.T, limit int, check func(*level.Level, *groupLevel, *GroupBound, *stategraph.Graph)) {
	t.Helper()
	for _, l := range testlevel.Resolve(t, "microban:1-155") {
		g, ok := newGroupLevel(t, l)
		if !ok {
			continue
		}
		gb := newTestGroups(g)
		if gb == nil {
			continue
		}
		if sg := stategraph.Build(g.board, nil, limit); sg != nil {
			check(l, g, gb, sg)
		}
	}
}

// TestGroupBoundIsAdmissible builds the complete push graphs of small
// levels and checks the group bound on every state against its distance in
// pushes to a solved state: never above it, and no state with a solution
// called dead. It must beat the matching somewhere.
func TestGroupBoundIsAdmissible(t *testing.T) {
	checked, states, raised := 0, 0, 0
	eachGroupGraph(t, 200000, func(l *level.Level, g *groupLevel, gb *GroupBound, sg *stategraph.Graph) {
		dist, err := g.board.PullDistancesBySide(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		lb, err := NewSidedPushMatching(context.Background(), g.board, g.board.NewSides(), dist)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		p := g.board.Start()
		for id, key := range sg.Keys {
			p.Unpack(key)
			d := sg.Dist[id]
			h, ok := gb.Bound(p)
			switch {
			case !ok && d >= 0:
				t.Fatalf("%s: group bound calls a state %d pushes from solved dead:\n%s", l.Name(), d, strings.Join(p.Rows(), "\n"))
			case ok && d >= 0 && h > d:
				t.Fatalf("%s: group bound %d on a state %d pushes from solved:\n%s", l.Name(), h, d, strings.Join(p.Rows(), "\n"))
			}
			if m, mok := lb.Bound(p); ok && mok && d >= 0 && h > m {
				raised++
			}
			states++
		}
	})
	t.Logf("%d levels, %d states: the group bound beat the matching on %d", checked, states, raised)
	if checked < 2 || raised == 0 {
		t.Fatalf("%d levels checked, the group bound beat the matching on %d states", checked, raised)
	}
}

// TestGroupCacheAgrees checks group, with its cache of recent results and
// the region labels in front of the tables, against a plain lookup of the
// group's boxes with the player's region filled, and matchRest against
// match, for every group and the boxes in no group of every state of small
// levels' complete push graphs, asked twice so that the second answer
// comes from the cache.
func TestGroupCacheAgrees(t *testing.T) {
	checked, groups, cached := 0, 0, 0
	eachGroupGraph(t, 50000, func(l *level.Level, g *groupLevel, gb *GroupBound, sg *stategraph.Graph) {
		checked++
		p := g.board.Start()
		var rest []sokoban.Square
		for _, key := range sg.Keys {
			p.Unpack(key)
			rest = rest[:0]
			for _, s := range p.BoxSquares() {
				if gb.area[s] < 0 && !gb.wall[s] {
					rest = append(rest, s)
				}
			}
			wh, wok := gb.match(rest)
			for range 2 {
				if h, ok := gb.matchRest(rest); ok != wok || ok && h != wh {
					t.Fatalf("%s: boxes %v in no group: matchRest %d %v, match %d %v", l.Name(), rest, h, ok, wh, wok)
				}
			}
			for k := range gb.families {
				for _, m := range gb.sortMembers(p, k) {
					if len(m) == 0 {
						continue
					}
					want := gb.look(m, gb.reach(m, p.Player()))
					for range 2 {
						got := gb.group(m, p.Player())
						if got.ok != want.ok || want.ok && got.pushes != want.pushes {
							t.Fatalf("%s: boxes %v, player %d: group %+v, table %+v", l.Name(), m, p.Player(), got, want)
						}
					}
					groups++
				}
			}
		}
		for _, v := range gb.recent {
			if v != 0 {
				cached++
			}
		}
	})
	t.Logf("%d levels, %d groups, %d results cached", checked, groups, cached)
	if checked < 2 || cached == 0 {
		t.Fatalf("%d levels checked, %d results cached", checked, cached)
	}
}

// TestMoveSorted checks moveSorted against copying and sorting, on random
// sorted sets of squares with each one moved to each square not in them.
func TestMoveSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		k := 1 + rng.IntN(6)
		boxes := make([]sokoban.Square, 0, k)
		for _, s := range rng.Perm(20)[:k] {
			boxes = append(boxes, sokoban.Square(s))
		}
		slices.Sort(boxes)
		got, want := make([]sokoban.Square, k), make([]sokoban.Square, k)
		for i := range boxes {
			for to := range sokoban.Square(20) {
				if slices.Contains(boxes, to) {
					continue
				}
				moveSorted(got, boxes, i, to)
				copy(want, boxes)
				want[i] = to
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("%v with box %d moved to %d: %v, want %v", boxes, i, to, got, want)
				}
			}
		}
	}
}

// TestAfterPullMatchesFill checks the canonical player squares that the
// tables take from the articulation points after each pull against a flood
// fill, on every state of the table of three boxes of Microban 144.
func TestAfterPullMatchesFill(t *testing.T) {
	l := testlevel.Resolve(t, "microban:144")[0]
	g, _ := newGroupLevel(t, l)
	gb := newTestGroups(g)
	pd := gb.table(3)
	if pd == nil || !pd.full {
		t.Fatal("no complete table of three boxes")
	}
	boxes, work := make([]sokoban.Square, 3), make([]sokoban.Square, 3)
	fast, pulls := 0, 0
	for _, v := range pd.slots {
		if v == 0 {
			continue
		}
		canon := pd.unpack(v&keyMask, boxes)
		for _, b := range boxes {
			gb.mark[b] = true
		}
		m1, m2 := gb.articulate(canon)
		for i, b := range boxes {
			for dir := range sokoban.Dirs {
				q := gb.b.Next(b, dir)
				if q < 0 || !gb.cuts.Visit.Has(q) {
					continue
				}
				r := gb.b.Next(q, dir)
				if r < 0 || gb.wall[r] || gb.mark[r] {
					continue
				}
				pulls++
				got, ok := gb.afterPull(b, q, r, m1, m2)
				if !ok {
					continue
				}
				fast++
				copy(work, boxes)
				work[i] = q
				for _, x := range boxes {
					gb.mark[x] = false
				}
				want := gb.reach(work, r)
				for _, x := range boxes {
					gb.mark[x] = true
				}
				if got != want {
					t.Fatalf("boxes %v player %d, pull %d to %d: canonical square %d, fill says %d", boxes, canon, b, q, got, want)
				}
			}
		}
		for _, b := range boxes {
			gb.mark[b] = false
		}
	}
	t.Logf("%d of %d pulls without a fill", fast, pulls)
	if fast == 0 {
		t.Fatal("no pull answered without a fill")
	}
}

// TestGroupBoundMicroban144 records what the group bound gives at the start
// of Microban 144 (matching 24, optimum 36): rooms of three boxes take 6
// pushes alone and two rooms joined by a tunnel 15 with the other boxes
// taken off, so the best families of pairs give 30.
func TestGroupBoundMicroban144(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tables of five and six boxes")
	}
	l := testlevel.Resolve(t, "microban:144")[0]
	g, _ := newGroupLevel(t, l)
	start := g.board.Start()
	gb := NewGroupBound(start, g.dead, g.dist, 24)
	if gb == nil || len(gb.families) != 2 {
		t.Fatalf("group bound %v; want two families of pairs above the matching", gb)
	}
	if h, ok := gb.Bound(start); !ok || h != 30 {
		t.Fatalf("group bound %d, %v at the start; want 30", h, ok)
	}
}

// BenchmarkGroupTable builds the table of five boxes of Microban 144 (the
// search builds those of five and six there) and reports its states per
// second.
func BenchmarkGroupTable(b *testing.B) {
	l := testlevel.Resolve(b, "microban:144")[0]
	g, _ := newGroupLevel(b, l)
	gb := newTestGroups(g)
	states := 0
	var pd *groupPDB
	for b.Loop() {
		clear(gb.pdbs)
		gb.states, gb.tableBytes = 0, 0
		pd = gb.table(5)
		states += pd.n
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(states)/float64(b.N), "states")
	// What the table takes a state, and what a sokoban.Store of the same
	// states (their keys as bytes) would.
	b.ReportMetric(float64(pd.bytes())/float64(pd.n), "bytes/state")
	store := sokoban.NewStore(8)
	var key [8]byte
	for _, v := range pd.slots {
		if v != 0 {
			binary.LittleEndian.PutUint64(key[:], v&keyMask)
			store.Intern(key[:], (v&keyMask)*0x9e3779b97f4a7c15)
		}
	}
	b.ReportMetric(float64(store.Bytes())/float64(pd.n), "store-bytes/state")
}

// BenchmarkGroupSetUp chooses the groups of Microban 144 and XSokoban 1-10
// (NewGroupBound: a sub-search per candidate group) and reports the time
// per sub-search expansion.
func BenchmarkGroupSetUp(b *testing.B) {
	var levels []*groupLevel
	for _, l := range append(testlevel.Resolve(b, "microban:144"), testlevel.Resolve(b, "xsokoban90:1-10")...) {
		if g, ok := newGroupLevel(b, l); ok {
			levels = append(levels, g)
		}
	}
	var nodes int64
	for b.Loop() {
		for _, g := range levels {
			if gb := newTestGroups(g); gb != nil {
				nodes += gb.Nodes
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes")
}
