package deadlock

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"soko/levels"
	"soko/sokoban"
)

// marked builds a board from rows where 'A' is a box ($) and 'B' a box on a
// goal (*), and returns the start position and the first marked square (the
// box just pushed), or None.
func marked(t *testing.T, rows ...string) (*sokoban.Position, sokoban.Square) {
	t.Helper()
	clean := make([]string, len(rows))
	ax, ay := -1, -1
	for y, r := range rows {
		if x := strings.IndexAny(r, "AB"); x >= 0 && ax < 0 {
			ax, ay = x, y
		}
		clean[y] = strings.NewReplacer("A", "$", "B", "*").Replace(r)
	}
	b := board(t, clean...)
	if b.Impossible != "" {
		t.Fatalf("test board: %s", b.Impossible)
	}
	s := sokoban.None
	if ax >= 0 {
		s = b.At(ax, ay)
	}
	return b.Start(), s
}

func only(k Kind) Detectors {
	var d Detectors
	*d.switchOf(k) = true
	return d
}

// detectorCase is a position right after the push that put a box on the
// square marked A or B, and the detectors that must call it dead; every
// other detector must not.
type detectorCase struct {
	name string
	rows []string
	dead []Kind
}

var detectorCases = []detectorCase{
	{"sweep: two boxes on the left column, one goal", []string{
		"########",
		"#     .#",
		"#A     #",
		"#  $   #",
		"#$    .#",
		"#.     #",
		"#@     #",
		"########",
	}, []Kind{KindWallSweep, KindWallSegment, KindTable}},
	{"sweep: two boxes on the left column, two goals", []string{
		"########",
		"#.     #",
		"#A     #",
		"#  $   #",
		"#$     #",
		"#.    .#",
		"#@     #",
		"########",
	}, nil},
	{"sweep: two boxes on the bottom row, one goal", []string{
		"########",
		"#@     #",
		"#  .   #",
		"#   $ .#",
		"# A  $.#",
		"########",
	}, []Kind{KindWallSweep, KindWallSegment, KindTable}},
	{"segment: inner pocket, two boxes, one goal (000 Fig. 4.6)", []string{
		"############",
		"#          #",
		"# # A.$ #  #",
		"# ####### ##",
		"#          #",
		"#@ .       #",
		"############",
	}, []Kind{KindWallSegment, KindTable}},
	{"segment: inner pocket with a door", []string{
		"############",
		"#          #",
		"# # A.$ #  #",
		"# ### ### ##",
		"#          #",
		"#@ .       #",
		"############",
	}, nil},
	{"segment: inner pocket, two goals", []string{
		"############",
		"#          #",
		"# # A.$.#  #",
		"# ####### ##",
		"#          #",
		"#@         #",
		"############",
	}, nil},
	{"wall pair against the top wall", []string{
		"#######",
		"# A$ .#",
		"#     #",
		"#@   .#",
		"#######",
	}, []Kind{KindWallPair, KindBlock2x2, KindFreeze, KindWallSweep, KindWallSegment, KindTable}},
	{"wall pair, both on goals", []string{
		"#######",
		"# B*  #",
		"#     #",
		"#@    #",
		"#######",
	}, nil},
	{"wall pair against an inner wall", []string{
		"########",
		"#      #",
		"#  A$  #",
		"#  ##  #",
		"#@ ..  #",
		"########",
	}, []Kind{KindWallPair, KindBlock2x2, KindFreeze, KindTable}},
	{"2x2 block of boxes", []string{
		"########",
		"#      #",
		"# A$   #",
		"# $$   #",
		"#   ...#",
		"#@    .#",
		"########",
	}, []Kind{KindBlock2x2, KindFreeze}},
	{"2x2 block of three boxes and a wall", []string{
		"########",
		"#      #",
		"# A$   #",
		"# $#   #",
		"#  ..  #",
		"#@   . #",
		"########",
	}, []Kind{KindBlock2x2, KindFreeze, KindTable}},
	{"two boxes side by side in the open", []string{
		"#######",
		"#     #",
		"# A$  #",
		"#     #",
		"#@  ..#",
		"#######",
	}, nil},
	{"frozen pair held by walls on opposite sides, no 2x2 block", []string{
		"#########",
		"#       #",
		"#  #A   #",
		"#   $#  #",
		"#       #",
		"#@   .. #",
		"#########",
	}, []Kind{KindFreeze, KindTable}},
	{"corral: the doorway box seals a room", []string{
		"#########",
		"##     ##",
		"##  $  ##",
		"####A####",
		"#       #",
		"#@  ..  #",
		"#########",
	}, []Kind{KindCorral, KindTable}},
	{"table: the near goal taken, the far one reached only past it", []string{
		"  ####",
		"###  ####",
		"# $     #",
		"# # @#  #",
		"# . B#  #",
		"#########",
	}, []Kind{KindTable}},
	{"table: the far goal taken first", []string{
		"  ####",
		"###  ####",
		"#   $   #",
		"# #  #  #",
		"# B@.#  #",
		"#########",
	}, nil},
	{"corral: the room can be opened", []string{
		"########",
		"##    ##",
		"##  $ ##",
		"##    ##",
		"###A####",
		"#  .   #",
		"#@ .   #",
		"########",
	}, nil},
}

func TestDetectors(t *testing.T) {
	for _, tc := range detectorCases {
		t.Run(tc.name, func(t *testing.T) {
			p, s := marked(t, tc.rows...)
			dead := DeadSquares(p.Board())
			for _, t2 := range p.BoxSquares() {
				if dead[t2] {
					t.Fatalf("bad test board: a box on a dead square")
				}
			}
			for k := Kind(0); k < NumKinds; k++ {
				want := false
				for _, w := range tc.dead {
					want = want || w == k
				}
				c := NewChecker(p.Board(), dead, only(k))
				if got := c.Deadlocked(p, s); got != want {
					t.Errorf("%s after the push: got %v, want %v", k, got, want)
				}
				if got := c.Fired[k] == 1; got != want {
					t.Errorf("%s: Fired = %d", k, c.Fired[k])
				}
				if _, got := c.CheckPosition(p); got != want {
					t.Errorf("%s on the whole position: got %v, want %v", k, got, want)
				}
			}
			// Everything on: dead exactly when some detector says so.
			c := NewChecker(p.Board(), dead, All())
			if got := c.Deadlocked(p, s); got != (len(tc.dead) > 0) {
				t.Errorf("All: got %v", got)
			}
		})
	}
}

func TestDetectorsOff(t *testing.T) {
	p, s := marked(t, detectorCases[0].rows...)
	c := NewChecker(p.Board(), DeadSquares(p.Board()), Detectors{})
	if c.Deadlocked(p, s) || c.Checks != 1 {
		t.Fatalf("no detectors on: Deadlocked true or Checks %d", c.Checks)
	}
}

func TestParseDetectors(t *testing.T) {
	d, err := ParseDetectors("freeze, wallsegment")
	if err != nil || d != (Detectors{Freeze: true, WallSegment: true}) {
		t.Fatalf("got %+v, %v", d, err)
	}
	if d, err := ParseDetectors("all"); err != nil || d != All() {
		t.Fatalf("all: %+v, %v", d, err)
	}
	if d, err := ParseDetectors("table"); err != nil || d != (Detectors{Table: true}) {
		t.Fatalf("table: %+v, %v", d, err)
	}
	if _, err := ParseDetectors("bogus"); err == nil {
		t.Fatal("no error for an unknown name")
	}
}

func TestPICorral(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		want int // barrier boxes returned
	}{
		// The two boxes seal the right part, which holds a goal; each can
		// only be pushed right, into it, from squares the player reaches.
		{"sealed goal area", []string{
			"########",
			"#   $ .#",
			"#@  $ .#",
			"########",
		}, 2},
		// The upper box can also be pushed down, out of the corral: not I.
		{"a barrier box can leave", []string{
			"########",
			"#   $ .#",
			"#@    .#",
			"#   $  #",
			"########",
		}, 0},
		// Everything behind the barrier is done: no need to open it.
		{"corral already solved", []string{
			"#######",
			"#  .* #",
			"#@ $* #",
			"#######",
		}, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := marked(t, tc.rows...)
			c := NewCorrals(p.Board(), DeadSquares(p.Board()))
			got := c.PICorral(p, nil)
			if tc.want >= 0 && len(got) != tc.want {
				t.Fatalf("PICorral = %v, want %d boxes", got, tc.want)
			}
			if tc.want < 0 && len(got) != 0 {
				t.Fatalf("PICorral = %v, want none", got)
			}
		})
	}
}

// TestCorralRetries: a corral whose relaxed search runs out of its first
// budget is not called dead then, and is proved dead once it has been asked
// for often enough that a search again gets the budget it needs; from then
// on the answer stays dead.
func TestCorralRetries(t *testing.T) {
	// Only one box can ever leave the room: pushed down through the
	// doorway it stops on the goal below, where the player, now shut in,
	// cannot reach its sides. The relaxed search has to go through the
	// room's positions to prove it.
	p, s := marked(t,
		"#########",
		"#       #",
		"#  $ $  #",
		"#       #",
		"####A####",
		"#@ ...  #",
		"#########")
	c := NewCorrals(p.Board(), DeadSquares(p.Board()))
	if c.DeadAfterPush(p, s) {
		t.Fatalf("dead on the first search of %d states", c.FirstNodes)
	}
	provedAt := 0
	for ask := 2; ask <= 1024; ask++ {
		dead := c.DeadAfterPush(p, s)
		if provedAt > 0 && !dead {
			t.Fatalf("ask %d: not dead after it was proved dead at ask %d", ask, provedAt)
		}
		if dead && provedAt == 0 {
			provedAt = ask
		}
	}
	if provedAt == 0 {
		t.Fatal("never proved dead")
	}
	if provedAt&(provedAt-1) != 0 || provedAt < 8 {
		t.Errorf("proved dead at ask %d, want a power of two from 8 on", provedAt)
	}
}

// TestCorralHiddenGoals: a box on the goal at the mouth of an empty goal
// column, with the square below it shut in by a second box on a goal. The
// only push the two allow, the second box left, leaves both on goals, so
// a relaxed search that asked only for its boxes on goals would call the
// corral solvable; the goals of the column, which the player never gets
// to, can get no box, and the position is dead.
func TestCorralHiddenGoals(t *testing.T) {
	p, _ := marked(t,
		"#######",
		"#.#   #",
		"#.# $ #",
		"#*  $ #",
		"#.B@$ #",
		"#######")
	c := NewCorrals(p.Board(), DeadSquares(p.Board()))
	if !c.Dead(p) {
		t.Fatal("not dead")
	}
}

// TestCanonAfter checks the relaxed search's canonical player square after
// a push (canonAfter, which mostly skips the flood fill, and canonKilled,
// for a box the kill rule takes off) against a plain flood fill
// (floodLeast), on random relaxed boards of up to six boxes on
// Microban 1–60, and that it leaves the region it started from as it was.
func TestCanonAfter(t *testing.T) {
	ls, err := levels.Resolve("microban:1-60", nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(14, 153))
	checked := 0
	for _, l := range ls {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		c := NewCorrals(b, DeadSquares(b))
		for range 200 {
			var boxes []sokoban.Square
			for range 1 + rng.IntN(6) {
				if s := sokoban.Square(rng.IntN(b.N)); !c.occ[s] {
					c.place([]sokoban.Square{s})
					boxes = append(boxes, s)
				}
			}
			player := sokoban.Square(rng.IntN(b.N))
			if c.occ[player] {
				c.lift(boxes)
				continue
			}
			c.reachFrom(player)
			region := slices.Clone(c.reach)
			for _, from := range boxes {
				for d := range sokoban.Dirs {
					behind, to := b.Next(from, d^1), b.Next(from, d)
					if behind == sokoban.None || to == sokoban.None || !c.g.has(c.reach, behind) || c.occ[to] {
						continue
					}
					c.lift([]sokoban.Square{from})
					c.place([]sokoban.Square{to})
					got := c.canonAfter(from, to, d)
					want, _ := floodLeast(b, c.occ, from)
					c.lift([]sokoban.Square{to})
					c.place([]sokoban.Square{from})
					if got != want {
						t.Fatalf("%s: boxes %v, player %d, push %d %v: canonical square %d, flood fill says %d", l.Name(), boxes, player, from, d, got, want)
					}
					if !slices.Equal(c.reach, region) {
						t.Fatalf("%s: canonAfter changed the region", l.Name())
					}
					// The same push with the box taken off (the kill rule).
					c.lift([]sokoban.Square{from})
					got = c.canonKilled(from, to)
					want, _ = floodLeast(b, c.occ, from)
					c.place([]sokoban.Square{from})
					if got != want {
						t.Fatalf("%s: boxes %v, player %d, push %d %v taken off: canonical square %d, flood fill says %d", l.Name(), boxes, player, from, d, got, want)
					}
					checked++
				}
			}
			c.lift(boxes)
		}
	}
	t.Logf("%d pushes checked", checked)
	if checked < 10000 {
		t.Fatalf("only %d pushes checked", checked)
	}
}

// TestCorralKillRule: FESS's best position on XSokoban 28, 15 of 20 boxes
// packed. The jam of TestLearnStuckGroup seals the squares under it, and
// the box pushed last is one of it. Among those five boxes alone two can be pushed out
// and then roam the board, so the plain relaxed search runs out of its
// first budget; the kill rule's search takes them off once they are free
// and proves the other three stuck on the first ask.
func TestCorralKillRule(t *testing.T) {
	p, s := marked(t,
		"         #####",
		"     #####@  #",
		"    ##       ####",
		"#####        ##*#",
		"#           ##**#",
		"#  ###### ###** #",
		"## #  #    #*** #",
		"#     #    #*** #",
		"#  #  ## ####*.*#",
		"####        ##.*#",
		"   ##        ...#",
		"    #$$$$   #  *#",
		"    #   A    ####",
		"    ######   #",
		"         #####")
	c := NewCorrals(p.Board(), DeadSquares(p.Board()))
	if !c.DeadAfterPush(p, s) {
		t.Fatal("not proved dead on the first ask")
	}
}
