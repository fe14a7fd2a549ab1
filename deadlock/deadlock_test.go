package deadlock

import (
	"context"
	"strings"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

func board(t *testing.T, rows ...string) *sokoban.Board {
	t.Helper()
	b, err := sokoban.NewBoard(testlevel.Grid(rows...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newMacros is NewMacros without a deadline, failing the test on an error.
func newMacros(t testing.TB, b *sokoban.Board) *Macros {
	t.Helper()
	m, err := NewMacros(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// overlay draws the level with dead squares as 'x'.
func overlay(b *sokoban.Board, dead []bool) []string {
	var out []string
	for y, row := range b.Level.Rows {
		r := []byte(row)
		for x := range r {
			if s := b.At(x, y); s != sokoban.None && dead[s] {
				r[x] = 'x'
			}
		}
		out = append(out, strings.TrimRight(string(r), " "))
	}
	return out
}

// TestDeadSquares draws the dead squares of small boards, and 001's
// dangerous cells (CornerSquares) of one.
func TestDeadSquares(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		want []string
		find func(*sokoban.Board) []bool // DeadSquares when nil
	}{
		{"room", []string{
			"#######",
			"#.    #",
			"#  $  #",
			"#@    #",
			"#######",
		}, []string{
			"#######",
			"#.   x#",
			"#  $ x#",
			"#xxxxx#",
			"#######",
		}, nil},
		{"goal in a wall line keeps it live", []string{
			"#######",
			"#  .  #",
			"# $   #",
			"#@    #",
			"#######",
		}, []string{
			"#######",
			"#x . x#",
			"#x$  x#",
			"#xxxxx#",
			"#######",
		}, nil},
		{"corridor dead end", []string{
			"########",
			"#.$ @  #",
			"########",
		}, []string{
			"########",
			"#.$ @ x#",
			"########",
		}, nil},
		// Corners (Alg. 1) and squares between corners along a wall
		// without a door (Alg. 2): the top and left walls. The right wall
		// has a door, the bottom wall a goal, so only their corners are
		// dangerous.
		{"001's dangerous cells", []string{
			"########",
			"#      #",
			"#      ##",
			"#  $@   #",
			"#      ##",
			"#    . #",
			"########",
		}, []string{
			"########",
			"#xxxxxx#",
			"#x     ##",
			"#x $@  x#",
			"#x     ##",
			"#x   .x#",
			"########",
		}, CornerSquares},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := board(t, tc.rows...)
			find := tc.find
			if find == nil {
				find = DeadSquares
			}
			got := overlay(b, find(b))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("dead squares:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestCornerSquaresAreDead checks that 001's dangerous cells are dead
// squares on every Microban level: the document's rules are a special case
// of DeadSquares.
func TestCornerSquaresAreDead(t *testing.T) {
	corners := 0
	for _, l := range testlevel.Resolve(t, "microban:1-155") {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			t.Fatal(err)
		}
		dead := DeadSquares(b)
		dangerous := CornerSquares(b)
		if len(dangerous) != b.N {
			t.Fatalf("%s: %d squares marked for a board of %d", l.Name(), len(dangerous), b.N)
		}
		for s, ok := range dangerous {
			if ok && !dead[s] {
				x, y := b.XY(sokoban.Square(s))
				t.Fatalf("%s: row %d, column %d is dangerous but not dead", l.Name(), y+1, x+1)
			}
			if ok {
				corners++
			}
		}
	}
	if corners < 1000 { // 2,386: some fifteen a board
		t.Fatalf("%d dangerous squares on the 155 Microban boards", corners)
	}
}

func TestFreeze(t *testing.T) {
	// In each board the box marked by the lowest, leftmost 'A' position is the
	// one just pushed: A is a box ($), B a box on a goal (*). Dead squares are
	// computed from the board unless noDead is set.
	cases := []struct {
		name     string
		rows     []string
		noDead   bool
		frozen   bool
		deadlock bool
	}{
		{"two boxes along a wall", []string{
			"#######",
			"#A$   #",
			"#     #",
			"#@  ..#",
			"#######",
		}, true, true, true},
		{"two boxes along a wall, both on goals", []string{
			"#######",
			"#B*   #",
			"#     #",
			"#@  $.#",
			"#######",
		}, true, true, false},
		{"on a goal, held by a box off its goal", []string{
			"#######",
			"#B$   #",
			"#     #",
			"#@  ..#",
			"#######",
		}, true, true, true},
		{"2x2 block in the open", []string{
			"########",
			"#      #",
			"# A$   #",
			"# $$   #",
			"#   ...#",
			"#@    .#",
			"########",
		}, true, true, true},
		{"2x2 block all on goals", []string{
			"########",
			"#      #",
			"# B*   #",
			"# **   #",
			"#      #",
			"#@     #",
			"########",
		}, true, true, false},
		{"two boxes side by side in the open", []string{
			"#######",
			"#     #",
			"# A$  #",
			"#     #",
			"#@  ..#",
			"#######",
		}, true, false, false},
		{"wall on one side only", []string{
			"#######",
			"#     #",
			"#A    #",
			"#     #",
			"#@   .#",
			"#######",
		}, true, false, false},
		{"dead squares on both sides", []string{
			"#####",
			"# A #",
			"## ##",
			"#@ .#",
			"#####",
		}, false, true, true},
		{"staircase of three held by walls", []string{
			"########",
			"#      #",
			"#  $#  #",
			"# #A$  #",
			"#   #  #",
			"#@ ... #",
			"########",
		}, true, true, true},
		{"staircase with a way out", []string{
			"########",
			"#      #",
			"#  $   #",
			"# #A$  #",
			"#   #  #",
			"#@ ... #",
			"########",
		}, true, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows := make([]string, len(tc.rows))
			var ax, ay = -1, -1
			for y, r := range tc.rows {
				if x := strings.IndexAny(r, "AB"); x >= 0 && ax < 0 {
					ax, ay = x, y
				}
				rows[y] = strings.NewReplacer("A", "$", "B", "*").Replace(r)
			}
			b := board(t, rows...)
			dead := make([]bool, b.N)
			if !tc.noDead {
				dead = DeadSquares(b)
			}
			f := NewFreeze(b, dead)
			p := b.Start()
			s := b.At(ax, ay)
			if got := f.Frozen(p, s); got != tc.frozen {
				t.Errorf("Frozen = %v, want %v", got, tc.frozen)
			}
			if got := f.Deadlocked(p, s); got != tc.deadlock {
				t.Errorf("Deadlocked = %v, want %v", got, tc.deadlock)
			}
		})
	}
}
