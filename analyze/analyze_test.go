package analyze

import (
	"context"
	"encoding/csv"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"soko/internal/golden"
	"soko/internal/testlevel"
	"soko/level"
	"soko/levels"
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
		"room a: 10 squares, 2 goals, 1 entrance; packing order (column,row): (1,1) (4,1)\n",
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
			sp, err := SearchSpace(l)
			if err != nil {
				t.Fatal(err)
			}
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
// a level may have. It took 6.5 s when tunnels and rooms flooded every open
// area once per square and side links once per square; now it is a matter
// of milliseconds, and a cancelled context stops it.
func TestRenderLargest(t *testing.T) {
	l := testlevel.Open(level.MaxWidth, level.MaxHeight, level.MaxBoxes)
	got, err := Render(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	if want := "floor squares 15876, dead squares 500, boxes 255, tunnel squares 0, goal rooms 0"; !strings.Contains(got, want) {
		t.Errorf("the counts line is missing %q:\n%s", want, got[strings.Index(got, "floor squares"):])
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if text, err := Render(ctx, l); err != context.Canceled || text != "" {
		t.Errorf("cancelled: %d bytes, error %v", len(text), err)
	}
}
