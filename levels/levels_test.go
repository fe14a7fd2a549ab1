package levels

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"soko/level"
)

var wantCounts = map[string]int{
	"microban":                    155,
	"microban3":                   101,
	"xsokoban90":                  90,
	"cbc60":                       60,
	"schokoban-microban100":       100,
	"boxoban-medium-valid-000":    1000,
	"boxoban-unfiltered-test-000": 1000,
}

func TestCollections(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) || len(names) != len(wantCounts) {
		t.Fatalf("Names() = %v", names)
	}
	for _, n := range names {
		c, err := Collection(n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if c.Name != n || len(c.Levels) != wantCounts[n] {
			t.Errorf("%s: name %q, %d levels, want %d", n, c.Name, len(c.Levels), wantCounts[n])
		}
		for i, l := range c.Levels {
			if l.Index != i+1 || l.Source != n {
				t.Errorf("%s level %d: Index %d Source %q", n, i+1, l.Index, l.Source)
			}
			// The embedded files number their levels by position, so
			// "; n" adds nothing to the label: microban:12 is "; 12".
			if l.Number != strconv.Itoa(l.Index) || l.Label() != l.Title {
				t.Errorf("%s level %d: number %q, label %q", n, i+1, l.Number, l.Label())
			}
		}
	}
	infos := List()
	if len(infos) != len(names) {
		t.Fatalf("List: %d entries", len(infos))
	}
	for i, info := range infos {
		if info.Name != names[i] || info.Levels != wantCounts[info.Name] || info.Description == "" {
			t.Errorf("List()[%d] = %+v", i, info)
		}
	}
	if infos[slices.Index(names, "microban")].Description != "Microban (155 levels) by David W. Skinner" {
		t.Errorf("microban description %q", infos[slices.Index(names, "microban")].Description)
	}
	if notes, err := data.ReadFile("data/PROVENANCE.md"); err != nil || !strings.Contains(string(notes), "Apache License 2.0") {
		t.Errorf("PROVENANCE.md lacks licence notes (%v)", err)
	}
}

func TestDungeon(t *testing.T) {
	ls, err := Resolve("microban:155", nil)
	if err != nil {
		t.Fatal(err)
	}
	l := ls[0]
	if l.Title != "The Dungeon" || l.Index != 155 {
		t.Errorf("microban:155 = %q index %d", l.Title, l.Index)
	}
	onGoal := 0
	for _, r := range l.Rows {
		onGoal += strings.Count(r, "*")
	}
	if onGoal != 10 {
		t.Errorf("%d boxes on goals, want 10", onGoal)
	}
}

func TestCollectionIsCopy(t *testing.T) {
	c1, _ := Collection("microban")
	c1.Levels[0].Rows[0] = "changed"
	c1.Levels[0].Title = "changed"
	c2, _ := Collection("microban")
	if c2.Levels[0].Rows[0] == "changed" || c2.Levels[0].Title == "changed" {
		t.Error("Collection returned shared levels")
	}
}

func TestConcurrentCollection(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if c, err := Collection("xsokoban90"); err != nil || len(c.Levels) != 90 {
				t.Errorf("concurrent Collection: %v", err)
			}
		})
	}
	wg.Wait()
}

const fileLevels = "; A file\n\n; 1 One\n#####\n#@$.#\n#####\n\n; 2 Two\n######\n#@$ .#\n######\n\n; 3\n#######\n#@$  .#\n#######\n"

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.xsb")
	if err := os.WriteFile(path, []byte(fileLevels), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec   string
		source string
		want   []int
	}{
		{"microban:12", "microban", []int{12}},
		{"xsokoban90:1-10", "xsokoban90", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"microban:1,5,9", "microban", []int{1, 5, 9}},
		{"microban:1-3,7", "microban", []int{1, 2, 3, 7}},
		{"microban:155", "microban", []int{155}},
		{"microban: 3 , 2", "microban", []int{3, 2}},
		{"cbc60", "cbc60", seq(1, 60)},
		{path, path, []int{1, 2, 3}},
		{path + ":3", path, []int{3}},
		{path + ":2-3,1", path, []int{2, 3, 1}},
		{"-", StdinSource, []int{1, 2, 3}},
		{"-:2", StdinSource, []int{2}},
	}
	for _, tc := range tests {
		ls, err := Resolve(tc.spec, strings.NewReader(fileLevels))
		if err != nil {
			t.Errorf("Resolve(%q): %v", tc.spec, err)
			continue
		}
		var got []int
		for _, l := range ls {
			got = append(got, l.Index)
			if l.Source != tc.source {
				t.Errorf("Resolve(%q): Source %q, want %q", tc.spec, l.Source, tc.source)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Resolve(%q) = %v, want %v", tc.spec, got, tc.want)
		}
	}
}

func seq(a, b int) []int {
	var s []int
	for i := a; i <= b; i++ {
		s = append(s, i)
	}
	return s
}

func TestResolveErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xsb")
	if err := os.WriteFile(bad, []byte("#####\n#@$x#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.xsb")
	if err := os.WriteFile(empty, []byte("; nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one.xsb")
	if err := os.WriteFile(one, []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec string
		want string
	}{
		{"nosuch", `unknown collection "nosuch" and no such file (known collections: boxoban-medium-valid-000, boxoban-unfiltered-test-000, cbc60, microban, microban3, schokoban-microban100, xsokoban90)`},
		{"nosuch:3", `unknown collection "nosuch" and no such file`},
		{filepath.Join(dir, "missing.xsb"), "no such file or directory"},
		{"microban:156", "microban: level 156 out of range: the collection has 155 levels"},
		{"microban:150-160", "microban: level 160 out of range: the collection has 155 levels"},
		{"microban:0", "microban: no level 0: levels are numbered from 1"},
		{"microban:5-3", "microban: bad level range 5-3: start after end"},
		{"microban:x", `microban: bad level selection "x"`},
		{"microban:", `microban: bad level selection ""`},
		{"microban:1,,2", `microban: bad level selection "1,,2"`},
		{"microban:1-", `microban: bad level selection "1-"`},
		{"microban:+1", `microban: bad level selection "+1"`},
		{"microban:99999999999999999999", `microban: bad level selection`},
		{bad, "bad.xsb:2:4: level 1: unknown character 'x' in board"},
		{empty, "empty.xsb: no levels"},
		{"-:4", "<stdin>: level 4 out of range: the collection has 3 levels"},
		{one + ":2", "one.xsb: level 2 out of range: the collection has 1 level"},
	}
	for _, tc := range tests {
		_, err := Resolve(tc.spec, strings.NewReader(fileLevels))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%q) error %v, want it to contain %q", tc.spec, err, tc.want)
		}
		// Only a file that exists but holds bad levels is not a mistake in
		// the spec.
		var se *SpecError
		if isSpec := errors.As(err, &se); isSpec != (tc.spec != bad && tc.spec != empty) {
			t.Errorf("Resolve(%q) error %v: SpecError %v", tc.spec, err, isSpec)
		}
	}
	var se *SpecError
	if _, err := Resolve("-", nil); !errors.As(err, &se) {
		t.Errorf("Resolve(-) without stdin: %v, want a SpecError", err)
	}
	var le *level.Error
	if _, err := Resolve(bad, nil); !errors.As(err, &le) || le.Level != 1 {
		t.Errorf("parse error is not a *level.Error: %v", err)
	}
}

func TestResolveAll(t *testing.T) {
	ls, err := ResolveAll(context.Background(), []string{"microban:1", "-:2", "-:1", "xsokoban90:90"}, strings.NewReader(fileLevels))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ls {
		got = append(got, l.Name())
	}
	want := []string{"microban:1", "<stdin>:2 (Two)", "<stdin>:1 (One)", "xsokoban90:90"}
	if !slices.Equal(got, want) {
		t.Errorf("ResolveAll = %q, want %q", got, want)
	}
	if _, err := ResolveAll(context.Background(), []string{"microban:1", "microban:999"}, nil); err == nil {
		t.Error("ResolveAll with a bad spec: no error")
	}
}

// Standard input that never ends and a FIFO without a writer: resolving
// stops when the context does.
func TestResolveAllCancelled(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := ResolveAll(ctx, []string{"-"}, r); !errors.Is(err, context.Canceled) {
		t.Errorf("stdin: want context.Canceled, got %v", err)
	}
	fifo := filepath.Join(t.TempDir(), "levels.xsb")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := ResolveAll(ctx, []string{fifo}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("FIFO: want context.DeadlineExceeded, got %v", err)
	}
}

// A level that cannot be loaded keeps its place: the others of its file
// are addressed by their positions as before, ResolveEntries reports it
// among them, and ResolveAll fails only when it is selected.
func TestResolveAroundUnloadable(t *testing.T) {
	good := "#####\n#@$.#\n#####\n"
	path := filepath.Join(t.TempDir(), "c.xsb")
	text := good + "\n" + good + "\nTitle: Lost\n#####\n# $.#\n#####\n\n" + good
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := ResolveEntries(context.Background(), []string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 4 || es[2].Unloadable == nil || es[2].Level != nil || es[3].Level == nil {
		t.Fatalf("entries %+v: want 4 with the third unloadable", es)
	}
	if got, want := es[2].ID(), path+":3"; got != want {
		t.Errorf("ID %q, want %q", got, want)
	}
	if es[2].Label() != "Lost" || es[3].ID() != path+":4" {
		t.Errorf("label %q, next ID %q", es[2].Label(), es[3].ID())
	}
	ls, err := ResolveAll(context.Background(), []string{path + ":1-2,4"}, nil)
	if err != nil || len(ls) != 3 || ls[2].Index != 4 {
		t.Fatalf("1-2,4: %d levels, %v; want 3, the last level 4", len(ls), err)
	}
	for _, spec := range []string{path, path + ":3", path + ":2-4"} {
		_, err := ResolveAll(context.Background(), []string{spec}, nil)
		if want := path + ":10: level 3: no player"; err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	if _, err := ResolveEntries(context.Background(), []string{path + ":5"}, nil); err == nil || !strings.Contains(err.Error(), "the collection has 4 levels") {
		t.Errorf("5: %v, want out of range of 4 levels", err)
	}
}

// A level's address is its position in its file; a "; n" comment is a
// title. Files cut from a collection (soko show microban:12,47 > mine.xsb),
// numbered in reverse, or with a number twice, are addressed by position.
func TestAddressIsPosition(t *testing.T) {
	board := func(n int) string {
		return "#######\n#@" + strings.Repeat(" ", n) + "$.#\n" + strings.Repeat("#", n+6) + "#\n"
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		ids        []string // ID of each level, in file order
		labels     []string
		bad        []string // specs that are out of range
	}{
		{"mine.xsb", "; 12\n" + board(0) + "\n; 47\n" + board(1), []string{"mine.xsb:1", "mine.xsb:2"}, []string{"12", "47"}, []string{"mine.xsb:12", "mine.xsb:47"}},
		{"swapped.xsb", "; 2 B\n" + board(0) + "\n; 1 A\n" + board(1), []string{"swapped.xsb:1", "swapped.xsb:2"}, []string{"2 B", "1 A"}, nil},
		{"twice.xsb", "; 7\n" + board(0) + "\n; 7\n" + board(1), []string{"twice.xsb:1", "twice.xsb:2"}, []string{"7", "7"}, []string{"twice.xsb:7"}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		es, err := ResolveEntries(context.Background(), []string{path}, nil)
		if err != nil || len(es) != len(tc.ids) {
			t.Fatalf("%s: %d entries, %v", tc.name, len(es), err)
		}
		for i, e := range es {
			if want := filepath.Join(dir, tc.ids[i]); e.ID() != want || e.Label() != tc.labels[i] {
				t.Errorf("%s level %d: ID %q label %q, want %q %q", tc.name, i+1, e.ID(), e.Label(), want, tc.labels[i])
			}
			// Each ID resolves to the level listed under it.
			one, err := Resolve(e.ID(), nil)
			if err != nil || len(one) != 1 || one[0].Line != e.Level.Line {
				t.Errorf("%s: Resolve(%q) = %v, %v; want the level at line %d", tc.name, e.ID(), one, err, e.Level.Line)
			}
		}
		for _, spec := range tc.bad {
			if _, err := Resolve(filepath.Join(dir, spec), nil); err == nil || !strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s: %v, want out of range", spec, err)
			}
		}
	}
}

// A level is named once: `solve z.xsb:1,1` solved "2 of 2 levels", the
// same level twice. A selection or specs that name a level twice are a
// SpecError naming the specs and the first level named twice.
func TestLevelNamedTwice(t *testing.T) {
	dir := t.TempDir()
	z := filepath.Join(dir, "z.xsb")
	if err := os.WriteFile(z, []byte("#####\n#@$.#\n#####\n\n#####\n#.$@#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same file spelled another way: through "..", and a link.
	other := filepath.Join(dir, "sub", "..", "z.xsb")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.xsb")
	if err := os.Symlink(z, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		specs []string
		stdin string
		err   string // "" for none
	}{
		{[]string{z + ":1,1"}, "", z + ":1,1 names level " + z + ":1 twice: name each level once"},
		{[]string{"microban:1-5,3"}, "", "microban:1-5,3 names level microban:3 twice"},
		{[]string{"microban:7,2-4,10-12,4"}, "", "microban:7,2-4,10-12,4 names level microban:4 twice"},
		{[]string{"microban", "microban:3"}, "", "microban and microban:3 both name level microban:3: name each level once"},
		{[]string{"microban:2-4", "microban:1", "microban:4-6"}, "", "microban:2-4 and microban:4-6 both name level microban:4"},
		{[]string{z, z + ":2"}, "", z + " and " + z + ":2 both name level " + z + ":2"},
		{[]string{"-", "-:1"}, "#####\n#@$.#\n#####\n", "- and -:1 both name level <stdin>:1"},
		{[]string{"microban:1", "microban:1"}, "", "microban:1 and microban:1 both name level microban:1"},
		{[]string{z + ":1", other + ":1"}, "", other + ":1 and " + z + ":1 both name level " + other + ":1"},
		{[]string{link + ":2", z}, "", z + " and " + link + ":2 both name level " + link + ":2"},
		// Adjacent and separate selections, and the same numbers in other collections, are fine.
		{[]string{"microban:1-3,4,6-7", "microban:8", "microban3:1-3", z + ":2,1"}, "", ""},
	} {
		es, err := ResolveEntries(context.Background(), c.specs, strings.NewReader(c.stdin))
		if c.err == "" {
			if err != nil || len(es) != 12 {
				t.Errorf("%q: %d levels, %v", c.specs, len(es), err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.err) || !errors.As(err, new(*SpecError)) {
			t.Errorf("%q: %v; want a SpecError %s", c.specs, err, c.err)
		}
	}
}

// An embedded collection and a file of the same name in the working
// folder are two collections: naming level 1 of each is no level named
// twice.
func TestEmbeddedBesideFileOfItsName(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("microban", []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if es, err := ResolveEntries(context.Background(), []string{"microban:1", "./microban:1"}, nil); err != nil || len(es) != 2 {
		t.Errorf("%d levels, %v", len(es), err)
	}
}

// A file whose name ends in ":N" is read as level N of the file before
// the colon; where that one does not exist, the error says how to address
// the file, and that way works.
func TestFileNamedLikeASelection(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("lv:1", []byte("#####\n#@$.#\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveEntries(context.Background(), []string{"lv:1"}, nil); err == nil || !errors.As(err, new(*SpecError)) ||
		!strings.Contains(err.Error(), "the file lv:1 is addressed with a selection of its own: lv:1:1 for its first level") {
		t.Errorf("lv:1: %v", err)
	}
	if es, err := ResolveEntries(context.Background(), []string{"lv:1:1"}, nil); err != nil || len(es) != 1 {
		t.Errorf("lv:1:1: %d levels, %v", len(es), err)
	}
}
