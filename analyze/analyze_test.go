package analyze

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"soko/deadlock"
	"soko/internal/golden"
	"soko/internal/testlevel"
	"soko/level"
	"soko/levels"
	"soko/sokoban"
)

func TestRenderGolden(t *testing.T) {
	for _, spec := range []string{"microban:1", "microban:2", "microban:11", "xsokoban90:1"} {
		ls, err := levels.Resolve(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Render(context.Background(), ls[0])
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, strings.ReplaceAll(spec, ":", "_")+".golden", got)
	}
}

func TestRenderMarks(t *testing.T) {
	ls, err := level.ParseString(strings.Join([]string{
		"#######",
		"#.  . #",
		"#     #",
		"### ###",
		"  #$#",
		"  # #",
		"  #$#",
		" ## ##",
		" # @ #",
		" #   #",
		" #####",
	}, "\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Render(context.Background(), ls[0])
	if err != nil {
		t.Fatal(err)
	}
	// The corridor is a vertical tunnel into a goal room with one entrance.
	board := strings.Join([]string{
		"#######",
		"#.aa.x#",
		"#xxaxx#",
		"###!###",
		"  #$#",
		"  #!#",
		"  #$#",
		" ##!##",
		" #x@x#",
		" #xxx#",
		" #####",
	}, "\n")
	if !strings.HasPrefix(got, board+"\n") {
		t.Fatalf("got:\n%s\nwant the board:\n%s", got, board)
	}
	// No level format reads the tunnel marks: a board with one is an error,
	// not a level with floor there.
	for _, mark := range "=!" {
		if _, err := level.ParseString("#####\n#@"+string(mark)+"$.#\n#####", "marks"); err == nil || !strings.Contains(err.Error(), "unknown character") {
			t.Errorf("a board with the tunnel mark %q: error %v, want unknown character", mark, err)
		}
	}
	for _, want := range []string{
		"floor squares 21, dead squares 10, boxes 2, tunnel squares 5, goal rooms 1\n",
		"room a: 10 squares, 2 goals, 1 entrance; packing order (column,row): (2,2) (5,2)\n",
		"= 1045 (10^3.0)\n", // C(11, 2)·19
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestEstimate(t *testing.T) {
	// 000 Appendix A: Microban III level 5, n = 20, p = 9, b = 3 gives 2805.
	// Without dead squares (Junghanns) the thesis writes
	// C(20, 3)·(20 − 3) = 22610, but C(20, 3)·17 = 1140·17 = 19380
	// (22610 = C(21, 3)·17): an arithmetic slip in the thesis.
	if got := Estimate(20, 9, 3).Int64(); got != 2805 {
		t.Errorf("Estimate(20, 9, 3) = %d, want 2805", got)
	}
	if got := Estimate(20, 0, 3).Int64(); got != 19380 {
		t.Errorf("Estimate(20, 0, 3) = %d, want 19380", got)
	}
	if got := Estimate(3, 2, 2).Sign(); got != 0 {
		t.Errorf("too few live squares: %d", got)
	}
}

// TestSearchSpaceTable compares with the table of the thesis (copied from
// utils/*_search_space_comp.csv of its repository, paulkroe/Schokoban;
// columns: tiles n, non-freezing tiles n − p, stones b, search space size).
//
// The non-freezing tiles and the boxes agree on every level. The tiles, and
// so the size, differ on some: the thesis counts the characters of the
// board (see ThesisTiles), so floor the player can never reach (a gap in
// the outer wall row, an isolated floor square walled in) counts there and
// the player on a goal ('+') does not; we count the squares the player can
// reach. With its own n the formula gives its size on every level. Two CBC
// levels (6 and 44) have 2 and 1 more tiles in the table than their
// characters; the conversion of the source files to the embedded
// collections removed trailing blanks, which the thesis' counter presumably
// saw.
func TestSearchSpaceTable(t *testing.T) {
	for _, c := range []struct {
		collection, file string
		extraTiles       map[int]int // level -> tiles in the table beyond schokobanTiles
	}{
		{"schokoban-microban100", "schokoban-microban100_search_space.csv", nil},
		{"cbc60", "cbc60_search_space.csv", map[int]int{6: 2, 44: 1}},
	} {
		f, err := os.Open(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col, err := levels.Collection(c.collection)
		if err != nil {
			t.Fatal(err)
		}
		rows = rows[1:] // header
		if len(rows) != len(col.Levels) {
			t.Fatalf("%s: %d rows for %d levels", c.file, len(rows), len(col.Levels))
		}
		same, thesisSame := 0, 0
		for i, l := range col.Levels {
			var v [3]int
			for j := range v {
				if v[j], err = strconv.Atoi(rows[i][j]); err != nil {
					t.Fatalf("%s row %d: %v", c.file, i+2, err)
				}
			}
			size, ok := new(big.Int).SetString(rows[i][3], 10)
			if !ok {
				t.Fatalf("%s row %d: bad size %q", c.file, i+2, rows[i][3])
			}
			b, err := sokoban.NewBoard(l)
			if err != nil {
				t.Fatal(err)
			}
			sp := space(l, b, deadlock.DeadSquares(b))
			name := l.Name()
			if sp.Tiles-sp.Locking != v[1] || sp.Boxes != v[2] {
				t.Errorf("%s: n-p = %d, b = %d; table %d, %d", name, sp.Tiles-sp.Locking, sp.Boxes, v[1], v[2])
			}
			if got := Estimate(v[0], v[0]-v[1], v[2]); !close(got, size) {
				t.Errorf("%s: the formula on the table's own numbers gives %d, table %d", name, got, size)
			}
			if tiles := sp.ThesisTiles + c.extraTiles[i+1]; tiles != v[0] {
				t.Errorf("%s: %d tiles by the table's count, table %d", name, tiles, v[0])
			}
			if close(sp.ThesisSize, size) {
				thesisSame++
			}
			if sp.Tiles == v[0] {
				same++
				if !close(sp.Size, size) {
					t.Errorf("%s: size %s, table %d", name, sp.Size, size)
				}
			}
		}
		t.Logf("%s: n equal to the table's on %d of %d levels; the thesis-convention size equal on %d", c.collection, same, len(rows), thesisSame)
		if want := len(rows) - len(c.extraTiles); thesisSame != want {
			t.Errorf("%s: the thesis-convention size equals the table on %d levels, want %d", c.collection, thesisSame, want)
		}
	}
}

// close reports whether a and b agree to 12 significant digits: the table's
// large sizes were computed in floating point (Microban III 57: exactly
// 430328622559398255, table 430328622559398144).
func close(a, b *big.Int) bool {
	if a.Cmp(b) == 0 {
		return true
	}
	d := new(big.Float).SetInt(new(big.Int).Sub(a, b))
	d.Quo(d, new(big.Float).SetInt(b))
	f, _ := d.Float64()
	return math.Abs(f) < 1e-12
}

// TestRenderLargest analyses the largest open board, with the most boxes
// a level may have. The static analysis takes milliseconds; the fess plans
// take seconds each there, and are reported as not worked out where they
// run past their budget. A cancelled context or one past its deadline
// stops it with the context's error.
func TestRenderLargest(t *testing.T) {
	l := testlevel.Open(level.MaxWidth, level.MaxHeight, level.MaxBoxes)
	got, err := Render(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("floor squares 15876, dead squares 500, boxes %d, tunnel squares 0, goal rooms 0", level.MaxBoxes); !strings.Contains(got, want) {
		t.Errorf("the counts line is missing %q:\n%s", want, got[strings.Index(got, "floor squares"):])
	}
	for _, plan := range []string{"fess packing plan", "fess parking plan"} {
		if !strings.Contains(got, "\n"+plan+", ") && !strings.Contains(got, "\n"+plan+" (") && !strings.Contains(got, "\n"+plan+": not worked out within the "+PlanTime.String()) {
			t.Errorf("neither the %s nor a note that it ran out of time:\n%s", plan, got[strings.Index(got, "floor squares"):])
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if text, err := Render(cancelled, l); err != context.Canceled || text != "" {
		t.Errorf("cancelled: %d bytes, error %v", len(text), err)
	}
	expired, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if text, err := Render(expired, l); err != context.DeadlineExceeded || text != "" {
		t.Errorf("past the deadline: %d bytes, error %v", len(text), err)
	}
}

// TestRenderMaze analyses a 128×128 maze of corridors one square wide with
// the most boxes a level may have and their goals in it, with no time for
// the fess plans: the board is marked and counted; some of its boxes start
// in dead ends, so it is said unsolvable and no plan is worked out. With no
// time for them a level's plans are reported as not worked out.
func TestRenderMaze(t *testing.T) {
	l := maze(level.MaxWidth, level.MaxHeight, level.MaxBoxes)
	got, err := render(context.Background(), l, 0)
	if err != nil {
		t.Fatal(err)
	}
	board, rest, _ := strings.Cut(got, "\n\nlegend:")
	if rows := strings.Split(board, "\n"); len(rows) != level.MaxHeight || len(rows[1]) != level.MaxWidth || !strings.HasPrefix(rows[1], "#@") {
		t.Errorf("the board has %d rows, the second %q", len(rows), rows[1])
	}
	if strings.ContainsAny(board, "-|") {
		t.Errorf("the board has XSB floor or row separators:\n%s", board)
	}
	m := regexp.MustCompile(`floor squares (\d+), dead squares \d+, boxes ` + strconv.Itoa(level.MaxBoxes) + `, tunnel squares (\d+), goal rooms \d+\n`).FindStringSubmatch(rest)
	if m == nil {
		t.Fatalf("no counts line:\n%s", rest)
	}
	// A maze is corridors: most of its floor is tunnel.
	if floor, _ := strconv.Atoi(m[1]); floor != 63*63*2-1 {
		t.Errorf("%d floor squares, want %d", floor, 63*63*2-1)
	}
	if tunnels, _ := strconv.Atoi(m[2]); tunnels < 63*63/2 {
		t.Errorf("only %d tunnel squares", tunnels)
	}
	// Its 130 goal rooms run out of letters; x stays the dead squares' mark.
	if !strings.Contains(rest, "\nroom y: ") || !strings.Contains(rest, "\nroom ?: ") || strings.Contains(rest, "\nroom x: ") {
		t.Errorf("the rooms are not marked a-w, y, z, then ?:\n%s", rest)
	}
	if !strings.Contains(rest, "\nunsolvable: the box at column ") || strings.Contains(rest, "fess packing plan") {
		t.Errorf("the maze's boxes in dead ends are not said, or its plans are worked out:\n%s", rest)
	}
	small, err := render(context.Background(), testlevel.Resolve(t, "xsokoban90:1")[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, plan := range []string{"packing plan", "parking plan (park strategy)", "parking plan with the moving sink (sink strategy)", "parking plan with the moving sink, ordered as Festival's pull search (pull strategy)"} {
		if want := "fess " + plan + ": not worked out within the 0s the analysis gives the fess plans\n"; !strings.Contains(small, want) {
			t.Errorf("missing %q in:\n%s", want, small)
		}
	}
}

// maze returns a width×height level (both even) of corridors one square
// wide: a spanning tree of the cells on odd squares, dug from the player's
// cell in the top left corner by a seeded depth-first search, with boxes
// boxes and their goals spread along the order the cells were dug in.
func maze(width, height, boxes int) *level.Level {
	rows := make([][]byte, height)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(string(level.Wall), width))
	}
	type cell struct{ x, y int }
	rng := rand.New(rand.NewPCG(1, 2))
	rows[1][1] = level.Player
	dug := []cell{}
	for stack := []cell{{1, 1}}; len(stack) > 0; {
		c := stack[len(stack)-1]
		var next []cell
		for _, d := range []cell{{2, 0}, {-2, 0}, {0, 2}, {0, -2}} {
			n := cell{c.x + d.x, c.y + d.y}
			if n.x > 0 && n.y > 0 && n.x < width-2 && n.y < height-2 && rows[n.y][n.x] == level.Wall {
				next = append(next, n)
			}
		}
		if len(next) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		n := next[rng.IntN(len(next))]
		rows[(c.y+n.y)/2][(c.x+n.x)/2], rows[n.y][n.x] = level.Floor, level.Floor
		dug = append(dug, n)
		stack = append(stack, n)
	}
	for i := range boxes {
		b, g := dug[i*len(dug)/boxes], dug[(2*i+1)*len(dug)/(2*boxes)]
		rows[b.y][b.x], rows[g.y][g.x] = level.Box, level.Goal
	}
	l := &level.Level{Source: "test", Width: width, Height: height}
	for _, r := range rows {
		l.Rows = append(l.Rows, string(r))
	}
	return l
}

// A box that starts where no box can reach a goal makes the level
// unsolvable, said as /api/plan says it, and no plan is worked out.
func TestRenderDeadStart(t *testing.T) {
	l := testlevel.Parse(t, "######\n#$   #\n#@ . #\n######\n")
	got, err := Render(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "unsolvable: the box at column 2, row 2 starts where no box can reach a goal\n") || strings.Contains(got, "fess packing plan") {
		t.Errorf("a box in a corner at the start:\n%s", got)
	}
}
