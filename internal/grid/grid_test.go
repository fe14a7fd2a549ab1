package grid

import (
	"math/rand/v2"
	"slices"
	"testing"

	"soko/internal/testlevel"
	"soko/sokoban"
)

// TestAppendDrawsTheBasePlanes draws a small level after a value already in
// dst and checks each base plane square by square, and that the planes
// after the base are left zero.
func TestAppendDrawsTheBasePlanes(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Grid(
		"#######",
		"#@ $ .#",
		"#######",
	))
	if err != nil {
		t.Fatal(err)
	}
	const n = Base + 1
	dst, in := Append([]float64{7}, b.Start(), n)
	w, hw := b.Width, b.Width*b.Level.Height
	if len(dst) != 1+n*hw || dst[0] != 7 || len(in) != n*hw {
		t.Fatalf("dst of %d values starting %g, planes of %d; want %d, 7, %d", len(dst), dst[0], len(in), 1+n*hw, n*hw)
	}
	want := map[int]string{ // per plane, the row y = 1 (the rest is wall)
		Wall:  "1000001",
		Goal:  "0000010",
		Box:   "0001000",
		Reach: "0110000", // the box stops the player
		Base:  "0000000",
	}
	for plane, row := range want {
		for x := range w {
			if got, v := in[plane*hw+w+x], float64(row[x]-'0'); got != v {
				t.Errorf("plane %d at (%d,1) = %g, want %g", plane, x, got, v)
			}
			v := 0.0 // the top row is all wall
			if plane == Wall {
				v = 1
			}
			if got := in[plane*hw+x]; got != v {
				t.Errorf("plane %d at (%d,0) = %g, want %g", plane, x, got, v)
			}
		}
	}
}

// TestLogitIsDirectionPlaneThenSquare checks the policy index of pushes in
// two directions from two squares: a plane of the grid per direction.
func TestLogitIsDirectionPlaneThenSquare(t *testing.T) {
	b, err := sokoban.NewBoard(testlevel.Grid(
		"######",
		"#@$ .#",
		"#    #",
		"######",
	))
	if err != nil {
		t.Fatal(err)
	}
	hw := int32(b.Width * b.Level.Height)
	box := b.At(2, 1)
	for d := range sokoban.Dirs {
		if got, want := Logit(b, sokoban.Push{Box: box, Dir: d}), int32(d)*hw+int32(b.Width)+2; got != want {
			t.Errorf("push of (2,1) in direction %d: logit %d, want %d", d, got, want)
		}
	}
	if got, want := Logit(b, sokoban.Push{Box: b.At(3, 2), Dir: 0}), 2*int32(b.Width)+3; got != want {
		t.Errorf("push of (3,2) in direction 0: logit %d, want %d", got, want)
	}
}

// TestDrawBatchKeepsOneBoardSize draws batches from items on two boards of
// different sizes: every batch holds items of the first one's board size
// only, and the same seed draws the same batch.
func TestDrawBatchKeepsOneBoardSize(t *testing.T) {
	small, err := sokoban.NewBoard(testlevel.Grid("#####", "#@$.#", "#####"))
	if err != nil {
		t.Fatal(err)
	}
	large, err := sokoban.NewBoard(testlevel.Grid("######", "#@$ .#", "#    #", "######"))
	if err != nil {
		t.Fatal(err)
	}
	boards := []*sokoban.Board{small, large, large, small, large, small, small}
	boardOf := func(i int) *sokoban.Board { return boards[i] }
	sizes := map[int]bool{}
	for seed := range uint64(20) {
		items, h, w := DrawBatch(rand.New(rand.NewPCG(seed, 1)), len(boards), 5, boardOf)
		again, _, _ := DrawBatch(rand.New(rand.NewPCG(seed, 1)), len(boards), 5, boardOf)
		if !slices.Equal(items, again) {
			t.Fatalf("seed %d: %v, then %v", seed, items, again)
		}
		if len(items) == 0 || len(items) > 5 {
			t.Fatalf("seed %d: %d items, want 1 to 5", seed, len(items))
		}
		for _, i := range items {
			if b := boards[i]; b.Width != w || b.Level.Height != h {
				t.Errorf("seed %d: item %d is %d×%d in a batch of %d×%d", seed, i, b.Width, b.Level.Height, w, h)
			}
		}
		sizes[w] = true
	}
	if len(sizes) != 2 {
		t.Errorf("20 seeds drew batches of board widths %v, want both sizes", sizes)
	}
}
