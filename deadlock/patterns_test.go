package deadlock

import (
	"testing"

	"soko/sokoban"
)

// TestLearnStuckGroup: XSokoban 28 with the jam of FESS's best position
// (15 of 20 boxes packed) at the bottom left and seven boxes still on
// their start squares. Two of the five jammed boxes can be pushed out; the
// other three are then frozen around the squares under them. Among all the
// boxes not loose, the seven among them, the relaxed search runs out of its
// budget; the jam's group alone is proved dead, and the pattern learned
// holds only boxes of it.
func TestLearnStuckGroup(t *testing.T) {
	b := board(t,
		"         #####",
		"     #####@  #",
		"    ## $  $  ####",
		"##### $  $ $ ##.#",
		"#       $$  ##..#",
		"#  ###### ###.. #",
		"## #  #    #..* #",
		"#     #    #*** #",
		"#  #  ## ####*.*#",
		"####        ##.*#",
		"   ##        ...#",
		"    #$$$$   #  *#",
		"    #   $    ####",
		"    ######   #",
		"         #####")
	stuck := map[sokoban.Square]bool{}
	for _, xy := range [][2]int{{5, 11}, {6, 11}, {7, 11}, {8, 11}, {8, 12}} {
		stuck[b.At(xy[0], xy[1])] = true
	}
	pt := NewPatterns(b, NewCorrals(b, DeadSquares(b)))
	if !pt.Learn(b.Start()) {
		t.Fatal("no pattern learned in a dead position")
	}
	for _, s := range pt.list[0].boxes {
		if !stuck[s] {
			x, y := b.XY(s)
			t.Errorf("the pattern holds the box on (%d,%d), outside the stuck group", x, y)
		}
	}
	if !pt.Match(b.Start()) {
		t.Error("the position the pattern was learned from does not match it")
	}
}

// TestGroups: boxes at most one square apart join a group; two squares
// apart they do not.
func TestGroups(t *testing.T) {
	b := board(t,
		"##########",
		"#@       #",
		"# $ $  $ #",
		"#   $    #",
		"#....    #",
		"##########")
	pt := NewPatterns(b, NewCorrals(b, DeadSquares(b)))
	var boxes []sokoban.Square
	for _, xy := range [][2]int{{2, 2}, {4, 2}, {7, 2}, {4, 3}} {
		boxes = append(boxes, b.At(xy[0], xy[1]))
	}
	groups := pt.groups(boxes)
	if len(groups) != 2 || len(groups[0]) != 3 || len(groups[1]) != 1 {
		t.Fatalf("groups %v, want three boxes and one", groups)
	}
}
