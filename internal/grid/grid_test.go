package grid

import (
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
