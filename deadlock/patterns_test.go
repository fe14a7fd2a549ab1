package deadlock

import (
	"slices"
	"testing"

	"soko/sokoban"
)

// jamBoard is XSokoban 28 with the jam of FESS's best position: see
// TestLearnStuckGroup.
func jamBoard(t *testing.T) *sokoban.Board {
	t.Helper()
	return board(t,
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
}

// TestLearnStuckGroup: XSokoban 28 with the jam of FESS's best position
// (15 of 20 boxes packed) at the bottom left and seven boxes still on
// their start squares. Two of the five jammed boxes can be pushed out; the
// other three are then frozen around the squares under them. Among all the
// boxes not loose, the seven among them, the relaxed search runs out of its
// budget; the jam's group alone is proved dead, and the pattern learned
// holds only boxes of it.
func TestLearnStuckGroup(t *testing.T) {
	b := jamBoard(t)
	stuck := map[sokoban.Square]bool{}
	for _, xy := range [][2]int{{5, 11}, {6, 11}, {7, 11}, {8, 11}, {8, 12}} {
		stuck[b.At(xy[0], xy[1])] = true
	}
	pt := NewPatterns(b, NewCorrals(b, DeadSquares(b)))
	if !pt.Learn(b.Start()) {
		t.Fatal("no pattern learned in a dead position")
	}
	if n := len(pt.list[0].boxes); n < 3 {
		t.Fatalf("the pattern holds %d boxes; a jam of the stuck group takes more", n)
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

// TestKnownAnswers: the answers Patterns remembers are the relaxed
// search's own. On XSokoban 28's jam, every subset of the jammed boxes
// with the player in three places is asked twice through the memory and
// once straight from the search; the answers agree, dead and not, and the
// memory holds one per problem. A full memory is emptied, not outgrown.
func TestKnownAnswers(t *testing.T) {
	b := jamBoard(t)
	c := NewCorrals(b, DeadSquares(b))
	pt := NewPatterns(b, c)
	jam := []sokoban.Square{b.At(5, 11), b.At(6, 11), b.At(7, 11), b.At(8, 11), b.At(8, 12)}
	players := []sokoban.Square{b.At(10, 1), b.At(5, 12), b.At(9, 12)}
	asked, dead := 0, 0
	for mask := 1; mask < 1<<len(jam); mask++ {
		var boxes []sokoban.Square
		for i, s := range jam {
			if mask&(1<<i) != 0 {
				boxes = append(boxes, s)
			}
		}
		slices.Sort(boxes)
		for _, pl := range players {
			if slices.Contains(boxes, pl) {
				continue
			}
			solvable, open := c.relaxedSolvable(boxes, pl, pt.Budget, true, false)
			want := !solvable && !open
			for range 2 {
				if got := pt.dead(boxes, pl); got != want {
					t.Fatalf("boxes %v, player %d: remembered dead %v, the search says %v", boxes, pl, got, want)
				}
			}
			asked++
			if want {
				dead++
			}
		}
	}
	if len(pt.known) != asked || dead == 0 || dead == asked {
		t.Fatalf("%d answers remembered for %d problems (%d dead); want one each, of both kinds", len(pt.known), asked, dead)
	}
	for i := 0; len(pt.known) < knownMax; i++ {
		pt.known[string(rune(i))+"x"] = false
	}
	pt.dead(jam, b.At(11, 1)) // not asked before
	if len(pt.known) != 1 {
		t.Errorf("a full memory holds %d answers after one more, want 1", len(pt.known))
	}
}
