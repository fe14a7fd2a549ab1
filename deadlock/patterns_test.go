package deadlock

import (
	"testing"

	"soko/sokoban"
)

// TestLearnStuckGroup: FESS's best position on XSokoban 28 after 15 of 20
// boxes packed. The five boxes at the bottom left can never all leave:
// once two of them are pushed up, the other three are frozen around the
// squares under them. Among all twenty boxes the relaxed search runs out of
// its budget; alone, those five are proved dead, and the pattern learned
// holds only boxes of theirs.
func TestLearnStuckGroup(t *testing.T) {
	b := board(t,
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
