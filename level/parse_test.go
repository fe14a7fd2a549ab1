package level

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// simple is a small valid level: one box right of the player, its goal
// beyond.
const simple = "#####\n#@$.#\n#####\n"

func TestParseSyntax(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		index  []int // positions: the addresses
		titles []string
		number []string   // numbers of "; n" comments; nil: none anywhere
		rows   [][]string // rows of each level, unpadded check via Rows
	}{
		{
			name:   "plain",
			in:     simple,
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "numbered title",
			in:     "; 7 Seven\n" + simple,
			index:  []int{1},
			titles: []string{"Seven"},
			number: []string{"7"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "quoted title",
			in:     "; 155 'The Dungeon'\n" + simple,
			index:  []int{1},
			titles: []string{"The Dungeon"},
			number: []string{"155"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "bare number",
			in:     ";12\n" + simple,
			index:  []int{1},
			number: []string{"12"},
			titles: []string{""},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "number too large is kept as written",
			in:     "; 99999999999999999999 Big\n" + simple,
			index:  []int{1},
			titles: []string{"Big"},
			number: []string{"99999999999999999999"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "numbers in reverse order are titles",
			in:     "; 2 B\n" + simple + "\n; 1 A\n" + simple + "\n; 1 A again\n" + simple,
			index:  []int{1, 2, 3},
			titles: []string{"B", "A", "A again"},
			number: []string{"2", "1", "1"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}, {"#####", "#@$.#", "#####"}, {"#####", "#@$.#", "#####"}},
		},
		{
			name:   "floor markers",
			in:     "#####-\n#@$.#_\n-#####\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"#####", "#@$.#", " #####"}},
		},
		{
			name:   "padding and trailing blanks",
			in:     "  ####   \n###  #\n#@$. #\t\n######\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"  ####", "###  #", "#@$. #", "######"}},
		},
		{
			name:   "run-length",
			in:     "5#|#@$.#|5#\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "run-length floor and trailing bar",
			in:     "7#|#@2-$.#|#4_*#|7#|\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"#######", "#@  $.#", "#    *#", "#######"}},
		},
		{
			name:   "run-length across lines",
			in:     "5#\n#@$.#|12#\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"#####", "#@$.#", "############"}},
		},
		{
			name:   "CRLF",
			in:     "; 1 A\r\n#####\r\n#@$.#\r\n#####\r\n\r\n; 2 B\r\n#####\r\n#.$@#\r\n#####\r\n",
			index:  []int{1, 2},
			number: []string{"1", "2"},
			titles: []string{"A", "B"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}, {"#####", "#.$@#", "#####"}},
		},
		{
			name:   "lone CR",
			in:     "; 1 A\r#####\r#@$.#\r#####\r\r#####\r#.$@#\r#####",
			index:  []int{1, 2},
			titles: []string{"A", ""},
			number: []string{"1", ""},
			rows:   [][]string{{"#####", "#@$.#", "#####"}, {"#####", "#.$@#", "#####"}},
		},
		{
			name:   "byte order mark",
			in:     "\uFEFF; 1 A\n" + simple,
			index:  []int{1},
			number: []string{"1"},
			titles: []string{"A"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}},
		},
		{
			name:   "byte order marks of files put together",
			in:     "\uFEFF" + simple + "\n\uFEFF" + simple,
			index:  []int{1, 2},
			number: []string{"", ""},
			titles: []string{"", ""},
			rows:   [][]string{{"#####", "#@$.#", "#####"}, {"#####", "#@$.#", "#####"}},
		},
		{
			name:   "several blank lines and no blank line",
			in:     simple + "\n\n\n" + simple + "; 9 Nine\n" + simple,
			index:  []int{1, 2, 3},
			titles: []string{"", "", "Nine"},
			number: []string{"", "", "9"},
			rows:   [][]string{{"#####", "#@$.#", "#####"}, {"#####", "#@$.#", "#####"}, {"#####", "#@$.#", "#####"}},
		},
		{
			name:   "unreachable boxes on goals",
			in:     "#########\n#@$.#*#*#\n#########\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"#########", "#@$.#*#*#", "#########"}},
		},
		{
			name:   "player on goal and box on goal",
			in:     "######\n#+$ *#\n######\n",
			index:  []int{1},
			titles: []string{""},
			rows:   [][]string{{"######", "#+$ *#", "######"}},
		},
		{
			name:   "free text is a note",
			in:     "Level one\nby somebody\n" + simple + "\nThis is not a board: 2 + 2.\n\n" + simple,
			index:  []int{1, 2},
			titles: []string{"", ""},
			rows:   [][]string{{"#####", "#@$.#", "#####"}, {"#####", "#@$.#", "#####"}},
		},
		{
			name:   "empty input",
			in:     "",
			index:  []int{},
			titles: []string{},
			rows:   [][]string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := ParseString(tc.in, "t.xsb")
			if err != nil {
				t.Fatalf("ParseString: %v", err)
			}
			if len(ls) != len(tc.index) {
				t.Fatalf("got %d levels, want %d", len(ls), len(tc.index))
			}
			for i, l := range ls {
				if l.Index != tc.index[i] || l.Title != tc.titles[i] {
					t.Errorf("level %d: index %d title %q, want %d %q", i, l.Index, l.Title, tc.index[i], tc.titles[i])
				}
				if tc.number != nil && l.Number != tc.number[i] || tc.number == nil && l.Number != "" {
					t.Errorf("level %d: number %q, want %q", i, l.Number, tc.number)
				}
				want := tc.rows[i]
				w := 0
				for _, r := range want {
					w = max(w, len(r))
				}
				if l.Width != w || l.Height != len(want) {
					t.Errorf("level %d: size %dx%d, want %dx%d", i, l.Width, l.Height, w, len(want))
				}
				for y, r := range want {
					if y < len(l.Rows) && l.Rows[y] != r+strings.Repeat(" ", w-len(r)) {
						t.Errorf("level %d row %d: %q, want %q", i, y, l.Rows[y], r)
					}
				}
				if l.Source != "t.xsb" {
					t.Errorf("Source %q", l.Source)
				}
			}
		})
	}
}

func TestParseTitleAuthorComments(t *testing.T) {
	in := "; Collection X\n;  indented\nintro text\n\n" +
		"; about level one\nTitle: First\nAUTHOR:  Ann \n" + simple +
		"\n; between\n" + simple + "title: Second\nAuthor: Bob\n" +
		"\n; 3 'Third'\n" + simple + "Title: Override\n"
	c, err := ParseCollection(strings.NewReader(in), "dir/coll.sok")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "coll" {
		t.Errorf("Name %q", c.Name)
	}
	if want := []string{"Collection X", " indented", "intro text"}; !slices.Equal(c.Header, want) {
		t.Errorf("Header %q, want %q", c.Header, want)
	}
	if len(c.Levels) != 3 {
		t.Fatalf("%d levels", len(c.Levels))
	}
	type want struct {
		index         int
		title, author string
		comments      []string
		line          int
	}
	wants := []want{
		{1, "First", "Ann", []string{"about level one"}, 8},
		{2, "Second", "Bob", []string{"between"}, 13},
		{3, "Override", "", nil, 20},
	}
	for i, w := range wants {
		l := c.Levels[i]
		if l.Index != w.index || l.Title != w.title || l.Author != w.author || !slices.Equal(l.Comments, w.comments) || l.Line != w.line {
			t.Errorf("level %d: got %d %q %q %q line %d, want %+v", i+1, l.Index, l.Title, l.Author, l.Comments, l.Line, w)
		}
	}
}

// Control characters in titles, authors and comments are kept as their
// escapes, so that printing them cannot drive the terminal; tabs stay.
func TestParseControlCharacters(t *testing.T) {
	in := "; a\x1b[2Jb\n; 1 t\u009bx\n" + simple + "Author: \a\tz\n"
	c, err := ParseCollection(strings.NewReader(in), "c.xsb")
	if err != nil || len(c.Levels) != 1 {
		t.Fatalf("%v, %+v", err, c)
	}
	l := c.Levels[0]
	if l.Title != `t\u009bx` || l.Author != "\\a\tz" || !slices.Equal(l.Comments, []string{`a\x1b[2Jb`}) {
		t.Errorf("title %q, author %q, comments %q", l.Title, l.Author, l.Comments)
	}
}

func TestParseErrors(t *testing.T) {
	var wide strings.Builder
	wide.WriteString(strings.Repeat("#", 130) + "\n")
	var tall strings.Builder
	for range MaxHeight + 1 {
		tall.WriteString("#\n")
	}
	manyRows := MaxBoxes/60 + 1
	many := "; 4\n" + boxRows(manyRows)

	tests := []struct {
		name      string
		in        string
		level     int
		line, col int
		msg       string
	}{
		{"no player", "; 3\n#####\n# $.#\n#####\n", 1, 2, 0, "no player"},
		{"two players", "#####\n#@$.#\n#  @#\n#####\n", 1, 3, 4, "two players (second at row 3, column 4)"},
		{"two players rle", "5#|#@$.#|#@2-#|5#\n", 1, 1, 11, "two players (second at row 3, column 2)"},
		{"boxes and goals", "\n\n######\n#@$$.#\n######\n", 1, 3, 0, "2 boxes but 1 goal"},
		{"one box two goals", "\n\n######\n#@$..#\n######\n", 1, 3, 0, "1 box but 2 goals"},
		{"no boxes", "#####\n#@ .#\n#####\n", 1, 1, 0, "no boxes"},
		{"open at edge", "; 2\n#####\n @$.#\n#####\n", 1, 3, 1, "level not closed: the player can walk off the board at row 2, column 1"},
		{"open beyond row end", "#######\n#@$.  #\n#   #\n#######\n", 1, 3, 6, "level not closed: the player can walk off the board at row 3, column 6"},
		{"open at bottom", simple + "\n#####\n#@$.#\n## ##\n", 2, 7, 3, "level not closed: the player can walk off the board at row 3, column 3"},
		{"unknown character", simple + "\n#####\n#@$x#\n#####\n", 2, 6, 4, `unknown character 'x' in board`},
		{"unknown unicode character", "#####\n#@$.#ä\n#####\n", 1, 2, 6, `unknown character 'ä' in board`},
		{"a byte not UTF-8", "#####\n#@$.#\xe9\n#####\n", 1, 2, 6, `byte 0xE9 in board, which is not UTF-8 text (a file in another encoding, such as Latin-1?)`},
		{"tab", "#####\n#@\t$.#\n#####\n", 1, 2, 3, "tab character in board (tabs are not allowed in boards; use spaces)"},
		{"leading tab", "#####\n\t#@$.#\n#####\n", 1, 2, 1, "tab character in board (tabs are not allowed in boards; use spaces)"},
		{"too wide", wide.String(), 1, 1, 129, "row wider than the maximum width 128"},
		{"too high", tall.String(), 1, 129, 1, "level higher than the maximum height 128"},
		{"too many boxes", many, 1, 2, 0, fmt.Sprintf("%d boxes, more than the limit of %d", 60*manyRows, MaxBoxes)},
		{"count zero", "5#|#@$.#|0#5#\n", 1, 1, 10, "run-length count 0"},
		{"count at end", "5#|#@$.#|5#3\n", 1, 1, 12, "run-length count not followed by a board character"},
		{"count before bar", "5#|#@$.#3|5#\n", 1, 1, 9, "run-length count not followed by a board character"},
		{"count too large", "; 5\n200#\n", 1, 2, 1, "run-length count larger than the maximum width 128"},
		{"row without wall", "5#|#@$.#||5#\n", 1, 1, 10, "board row without a wall"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := ParseString(tc.in, "e.xsb")
			if err == nil {
				t.Fatalf("no error, %d levels", len(ls))
			}
			if ls != nil {
				t.Errorf("levels returned with error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			want := Error{File: "e.xsb", Level: tc.level, Line: tc.line, Col: tc.col, Msg: tc.msg}
			if *e != want {
				t.Errorf("got  %#v\nwant %#v", *e, want)
			}
		})
	}
}

// boxRows is a closed 123-wide level of n rows of 60 boxes, each beside
// its goal, below a row where the player stands.
func boxRows(n int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("#", 123) + "\n#@" + strings.Repeat(" ", 120) + "#\n")
	for range n {
		b.WriteString("#" + strings.Repeat("$.", 60) + " #\n")
	}
	b.WriteString(strings.Repeat("#", 123) + "\n")
	return b.String()
}

// A level of more than 255 boxes loads (Sasquatch VI 50 has 288), up to
// MaxBoxes.
func TestParseManyBoxes(t *testing.T) {
	for _, rows := range []int{5, MaxBoxes / 60} {
		ls, err := ParseString(boxRows(rows), "m.xsb")
		if err != nil {
			t.Fatalf("%d boxes: %v", 60*rows, err)
		}
		if got := ls[0].Boxes(); got != 60*rows {
			t.Errorf("%d boxes read as %d", 60*rows, got)
		}
	}
	exact := strings.Replace(boxRows(MaxBoxes/60+1), strings.Repeat("$.", 60), strings.Repeat("$.", MaxBoxes%60)+strings.Repeat("  ", 60-MaxBoxes%60), 1)
	if ls, err := ParseString(exact, "m.xsb"); err != nil || ls[0].Boxes() != MaxBoxes {
		t.Errorf("a level of exactly MaxBoxes boxes: %v", err)
	}
}

func TestParseLimits(t *testing.T) {
	_, err := Parse(io.LimitReader(repeat("; "+strings.Repeat("x", 1<<16)+"\n"), MaxInput+10), "big")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "larger than the limit") {
		t.Errorf("big input: %v", err)
	}
	_, err = Parse(failing{}, "bad")
	if !errors.As(err, &e) || e.Error() != "bad: read error: boom" {
		t.Errorf("read error: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("boom") }

func TestErrorString(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "microban.xsb", Level: 155, Line: 1234, Col: 5, Msg: "two players"}, "microban.xsb:1234:5: level 155: two players"},
		{Error{File: "m.xsb", Line: 3, Msg: "x"}, "m.xsb:3: x"},
		{Error{File: "m.xsb", Level: 2, Msg: "x"}, "m.xsb: level 2: x"},
		{Error{Line: 1, Col: 7, Msg: "x"}, "1:7: x"},
		{Error{Msg: "x"}, "x"},
	}
	for _, tc := range tests {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%#v: %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestLevelAccessors(t *testing.T) {
	ls, err := ParseString("; 4 Four\n"+simple, "x.xsb")
	if err != nil {
		t.Fatal(err)
	}
	l := ls[0]
	if l.At(1, 1) != Player || l.At(2, 1) != Box || l.At(-1, 0) != Floor || l.At(5, 0) != Floor {
		t.Errorf("At wrong")
	}
	// The address is the position; "; 4" is part of the label.
	if l.Name() != "x.xsb:1 (4 Four)" || l.Label() != "4 Four" {
		t.Errorf("Name %q, Label %q", l.Name(), l.Label())
	}
	for _, tc := range []struct {
		index               int
		number, title, want string
	}{{1, "", "", ""}, {1, "1", "A", "A"}, {2, "1", "A", "1 A"}, {3, "12", "", "12"}, {3, "", "T", "T"}, {1, "0", "", "0"}, {1, "01", "", "01"}} {
		if got := Label(tc.index, tc.number, tc.title); got != tc.want {
			t.Errorf("Label(%d, %q, %q) = %q, want %q", tc.index, tc.number, tc.title, got, tc.want)
		}
	}
}

// A file of NUL bytes with no line end is a binary file, not a long line.
func TestNULWithoutLineEnd(t *testing.T) {
	_, err := ParseCollection(bytes.NewReader(make([]byte, MaxLine+10)), "zero")
	if err == nil || !strings.Contains(err.Error(), "a NUL byte: a binary file") {
		t.Errorf("%v", err)
	}
}
