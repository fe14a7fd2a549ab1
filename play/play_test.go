package play

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"soko/level"
)

const microban1 = "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n"

// solution1 solves Microban 1 in 33 moves and 8 pushes.
const solution1 = "dlUrrrdLullddrUluRuulDrddrruLdlUU"

// microban2 is Microban 2, 6 squares wide and 7 high.
const microban2 = "######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######\n"

// parse reads XSB text as levels of the collection "microban", numbered
// from 1.
func parse(t *testing.T, text string) []*level.Level {
	t.Helper()
	ls, err := level.ParseString(text, "microban")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range ls {
		l.Index = i + 1
	}
	return ls
}

func newModel(t *testing.T) *Model {
	t.Helper()
	return New(parse(t, microban1))
}

// key builds the message a key press sends.
func key(s string) tea.Msg {
	switch s {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

func send(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(key(k))
	}
	return cmd
}

func view(m *Model) string { return ansi.Strip(m.View().Content) }

func TestPlayUndoRestart(t *testing.T) {
	m := newModel(t)
	v := view(m)
	if !strings.Contains(v, "moves 0   pushes 0") || !strings.Contains(v, "boxes on goals 1/2") || !strings.Contains(v, "@ ") {
		t.Fatalf("start view:\n%s", v)
	}
	send(m, "down", "a", "w") // d l U: the third step pushes
	if m.Game().Moves() != 3 || m.Game().Pushes() != 1 || m.Game().LURD() != "dlU" {
		t.Fatalf("after d l U: %d moves, %d pushes, %q", m.Game().Moves(), m.Game().Pushes(), m.Game().LURD())
	}
	if v := view(m); !strings.Contains(v, "moves 3   pushes 1") {
		t.Fatalf("view after three moves:\n%s", v)
	}
	send(m, "left") // into a wall: nothing happens
	if m.Game().Moves() != 3 {
		t.Fatalf("a step into a wall was played: %q", m.Game().LURD())
	}
	send(m, "u")
	if m.Game().LURD() != "dl" || m.Game().Pushes() != 0 {
		t.Fatalf("after undo: %q", m.Game().LURD())
	}
	send(m, "y")
	if m.Game().LURD() != "dlU" {
		t.Fatalf("after redo: %q", m.Game().LURD())
	}
	send(m, "r")
	if m.Game().Moves() != 0 || m.Game().OnGoals() != 1 || !strings.Contains(view(m), "3 steps undone: y redoes one") || strings.Contains(view(m), "replay") {
		t.Fatalf("after restart:\n%s", view(m))
	}
	// The restart keeps the steps for redo; a different move drops them.
	send(m, "right")
	send(m, "y")
	if m.Game().LURD() != "r" {
		t.Fatalf("redo after a new move: %q", m.Game().LURD())
	}
}

func TestPlayToSolved(t *testing.T) {
	m := newModel(t)
	keys := map[byte]string{'u': "up", 'd': "down", 'l': "left", 'r': "right"}
	for _, c := range strings.ToLower(solution1) {
		send(m, keys[byte(c)])
	}
	if !m.Game().Solved() || m.Game().Moves() != 33 || m.Game().Pushes() != 8 || m.Game().LURD() != solution1 {
		t.Fatalf("after the solution: solved %v, %d moves, %d pushes, %q", m.Game().Solved(), m.Game().Moves(), m.Game().Pushes(), m.Game().LURD())
	}
	if v := view(m); !strings.Contains(v, "SOLVED in 33 moves, 8 pushes") {
		t.Fatalf("solved view:\n%s", v)
	}
	if cmd := send(m, "q"); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q does not quit")
	}
}

func TestReplay(t *testing.T) {
	m := newModel(t)
	moves, err := level.ParseLURD(solution1)
	if err != nil {
		t.Fatal(err)
	}
	m.SetSpeed(1000)
	m.Replay(moves)
	cmd := m.Init()
	if cmd == nil {
		t.Fatal("a loaded replay does not start")
	}
	if v := view(m); !strings.Contains(v, "replay playing: 0 of 33 steps, 1000 steps/s") {
		t.Fatalf("replay view:\n%s", v)
	}
	// Drive the ticks by hand, as the program would.
	for i := 0; i < 10; i++ {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if m.Game().Moves() != 10 || cmd == nil {
		t.Fatalf("after 10 ticks: %d moves", m.Game().Moves())
	}
	send(m, "space") // pause: ticks of the old run are ignored
	m.Update(tickMsg{m.gen - 1})
	if m.Game().Moves() != 10 || m.playing {
		t.Fatalf("paused replay moved on: %d", m.Game().Moves())
	}
	if v := view(m); !strings.Contains(v, "replay stopped after 10 of 33 steps: space plays on at 1000 steps/s") {
		t.Fatalf("paused view:\n%s", v)
	}
	send(m, "backspace")
	if m.Game().Moves() != 9 {
		t.Fatalf("undo during a replay: %d", m.Game().Moves())
	}
	cmd = send(m, "space")
	for cmd != nil {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if !m.Game().Solved() || m.Game().LURD() != solution1 {
		t.Fatalf("replay ended unsolved: %q", m.Game().LURD())
	}
}

func TestIllegalReplayStops(t *testing.T) {
	m := newModel(t)
	moves, _ := level.ParseLURD("dlUU" + "llll")
	m.SetSpeed(1000)
	m.Replay(moves)
	for cmd := m.Init(); cmd != nil; {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if m.Game().LURD() != "dlUU" || m.playing || !strings.Contains(view(m), "illegal") {
		t.Fatalf("after an illegal step: %q\n%s", m.Game().LURD(), view(m))
	}
	// What it played of the replay is still the replay, not the player's
	// game: soko play --out does not save it over theirs.
	if m.Game().Own() {
		t.Error("a replay stopped at an illegal step is taken for the player's game")
	}
}

// TestReplayStatusAfterUndo: a replay played to its end and then stepped
// back says how far it is and how to go on, and the speed it plays at.
func TestReplayStatusAfterUndo(t *testing.T) {
	m := newModel(t)
	moves, _ := level.ParseLURD(solution1)
	m.Replay(moves)
	for cmd := m.Init(); cmd != nil; {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if v := view(m); !strings.Contains(v, "replay played to its end (33 steps)") || !strings.Contains(v, "SOLVED") {
		t.Fatalf("replay at its end:\n%s", v)
	}
	send(m, "u")
	if v := view(m); !strings.Contains(v, "replay stopped after 32 of 33 steps: space plays on at 8 steps/s") {
		t.Fatalf("after an undo at the end of a replay:\n%s", v)
	}
	send(m, "y")
	if !m.Game().Solved() || !strings.Contains(view(m), "replay played to its end") {
		t.Fatalf("redo after the undo:\n%s", view(m))
	}
	// A step of one's own leaves the replay, and the status says no more
	// of it.
	send(m, "r", "down", "right")
	if v := view(m); !strings.Contains(v, "off the replay: its remaining steps are dropped") || strings.Contains(v, "replay stopped") {
		t.Fatalf("after leaving the replay:\n%s", v)
	}
	send(m, "u")
	if v := view(m); !strings.Contains(v, "1 step undone: y redoes one, space plays them") || strings.Contains(v, "replay") {
		t.Fatalf("undo by hand after leaving the replay:\n%s", v)
	}
}

// TestSpeedShown: + and - say the speed they set, within its bounds.
func TestSpeedShown(t *testing.T) {
	m := newModel(t)
	send(m, "+")
	if v := view(m); !strings.Contains(v, "speed 12 steps/s") {
		t.Fatalf("after +:\n%s", v)
	}
	send(m, "-", "-")
	if v := view(m); !strings.Contains(v, "speed 5.3 steps/s") {
		t.Fatalf("after + - -:\n%s", v)
	}
	for range 20 {
		send(m, "-")
	}
	if v := view(m); !strings.Contains(v, "speed 0.5 steps/s") {
		t.Fatalf("at the slowest:\n%s", v)
	}
	for range 20 {
		send(m, "+")
	}
	if v := view(m); !strings.Contains(v, "speed 100 steps/s") {
		t.Fatalf("at the fastest:\n%s", v)
	}
}

// TestLevels: n and p (and PgDn, PgUp) move between the levels named, each
// keeping its position; the status gives the level's address and place.
func TestLevels(t *testing.T) {
	m := New(parse(t, microban1+"\n"+microban2))
	if v := view(m); !strings.Contains(v, "microban:1 (level 1 of 2)") || !strings.Contains(v, "n/pgdn next level") {
		t.Fatalf("first level:\n%s", v)
	}
	send(m, "down", "p")
	if v := view(m); !strings.Contains(v, "this is the first level") || !strings.Contains(v, "moves 1") {
		t.Fatalf("p on the first level:\n%s", v)
	}
	send(m, "n")
	if v := view(m); !strings.Contains(v, "microban:2 (level 2 of 2)") || !strings.Contains(v, "moves 0") || !strings.Contains(v, "boxes on goals 2/3") {
		t.Fatalf("after n:\n%s", v)
	}
	send(m, "right", "n")
	if v := view(m); !strings.Contains(v, "this is the last level") || m.Game().LURD() != "r" {
		t.Fatalf("n on the last level:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	if m.Game().Level().Index != 1 || m.Game().LURD() != "d" {
		t.Fatalf("PgUp: level %d with %q", m.Game().Level().Index, m.Game().LURD())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	if m.Game().Level().Index != 2 {
		t.Fatalf("PgDn: level %d", m.Game().Level().Index)
	}
	var played []string
	for _, g := range m.Played() {
		played = append(played, g.Level().Name()+" "+g.LURD())
	}
	if strings.Join(played, ", ") != "microban:1 d, microban:2 r" {
		t.Fatalf("played: %q", played)
	}
	// Only the levels with a step played count; with none, the one shown.
	m = New(parse(t, microban1+"\n"+microban2))
	send(m, "n")
	if p := m.Played(); len(p) != 1 || p[0].Level().Index != 2 {
		t.Fatalf("nothing played: %d games", len(p))
	}
	if v := view(newModel(t)); strings.Contains(v, "next level") {
		t.Fatalf("one level, yet the keys to move between levels:\n%s", v)
	}
}

// TestFloorAndOutside: floor within the walls is drawn, the outside of the
// level is blank.
func TestFloorAndOutside(t *testing.T) {
	g := newModel(t).Game()
	wide := strings.Split(ansi.Strip(g.Board(true)), "\n")
	// A box on a goal (row 3) is told from a box (row 4) by its glyph, not
	// its colour alone.
	if wide[0] != "████████    " || wide[1] != "██░░··██    " || wide[3] != "██**@ ░░░░██" || wide[4] != "██░░░░[]░░██" {
		t.Fatalf("wide board:\n%s", strings.Join(wide, "\n"))
	}
	narrow := strings.Split(ansi.Strip(g.Board(false)), "\n")
	if narrow[1] != "█░.█  " || narrow[3] != "█*@░░█" {
		t.Fatalf("narrow board:\n%s", strings.Join(narrow, "\n"))
	}
}

// flat is the screen's text with its lines joined by spaces, so that a
// check of a message does not depend on where it wraps.
func flat(v string) string { return strings.Join(strings.Fields(v), " ") }

// sized returns the screen of m in a window of w×h, checking that it fits.
func sized(t *testing.T, m *Model, w, h int) string {
	t.Helper()
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	v := view(m)
	lines := strings.Split(v, "\n")
	if len(lines) > h {
		t.Errorf("%d lines in a window %d high:\n%s", len(lines), h, v)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Errorf("a line wider than %d: %q", w, l)
		}
	}
	return v
}

// TestSmallWindow: the screen always fits the window: the board two
// columns a square, one, the board with its status but not the keys, or a
// message saying what size to make it, with the status and keys kept.
func TestSmallWindow(t *testing.T) {
	m := New(parse(t, microban1+"\n"+microban2))
	if v := sized(t, m, 110, 30); !strings.Contains(v, "██░░··██") || strings.Contains(v, "small window") || !strings.Contains(v, "q quit") {
		t.Fatalf("large window:\n%s", v)
	}
	// Wide enough for the board two columns a square, with the lines under
	// it wrapped.
	if v := sized(t, m, 30, 20); !strings.Contains(v, "██░░··██") || !strings.Contains(v, "boxes on goals 1/2") || !strings.Contains(v, "q quit") {
		t.Fatalf("30×20:\n%s", v)
	}
	// Too narrow for that: one column a square, and a note.
	v := sized(t, m, 10, 40)
	if !strings.Contains(v, "█░.█") || strings.Contains(v, "██░░") || !strings.Contains(flat(v), "small window") || !strings.Contains(v, "q quit") {
		t.Fatalf("10×40:\n%s", v)
	}
	// Room for the board and its status, not the keys: those, and a line
	// saying so, whose size shows the keys.
	v = sized(t, m, 30, 12)
	if !strings.Contains(v, "██░░··██") || !strings.Contains(v, "boxes on goals 1/2") || !strings.Contains(v, "keys hidden") || strings.Contains(v, "q quit") {
		t.Fatalf("30×12:\n%s", v)
	}
	var kw, kh int
	if _, err := fmt.Sscanf(flat(v)[strings.Index(flat(v), "keys hidden: ")+len("keys hidden: "):], "%d×%d", &kw, &kh); err != nil {
		t.Fatalf("30×12: %v\n%s", err, v)
	}
	if v := sized(t, m, kw, kh); !strings.Contains(v, "██░░··██") || !strings.Contains(v, "q quit") || strings.Contains(v, "keys hidden") {
		t.Fatalf("%d×%d, the size named for the keys:\n%s", kw, kh, v)
	}
	// Too small for any board: the message, the address and the keys.
	v = sized(t, m, 20, 8)
	if strings.Contains(v, "█") || !strings.Contains(flat(v), "too small") || !strings.Contains(v, "microban:1") || !strings.Contains(v, "q quit") {
		t.Fatalf("20×8:\n%s", v)
	}
	want := "enlarge it to "
	i := strings.Index(flat(v), want)
	if i < 0 {
		t.Fatalf("20×8 names no size:\n%s", v)
	}
	var w, h int
	if _, err := fmt.Sscanf(flat(v)[i+len(want):], "%d×%d", &w, &h); err != nil {
		t.Fatalf("20×8: %v\n%s", err, v)
	}
	// The size it names shows the board whole, two columns a square.
	if v := sized(t, m, w, h); !strings.Contains(v, "██░░··██") || strings.Contains(v, "small window") {
		t.Fatalf("%d×%d, the size asked for:\n%s", w, h, v)
	}
	// The keys still work in a window too small.
	sized(t, m, 20, 8)
	send(m, "n")
	if v := view(m); !strings.Contains(v, "microban:2") {
		t.Fatalf("n in a small window:\n%s", v)
	}
}

// TestNextPausesReplay: n with one level leaves a running replay running;
// moving to another level pauses it, and its ticks are ignored there.
func TestNextPausesReplay(t *testing.T) {
	m := newModel(t)
	moves, _ := level.ParseLURD(solution1)
	m.Replay(moves)
	m.Init()
	send(m, "n")
	if !m.playing || !strings.Contains(view(m), "this is the only level") {
		t.Fatalf("n with one level:\n%s", view(m))
	}
	m = New(parse(t, microban1+"\n"+microban2))
	m.Replay(moves)
	m.Init()
	gen := m.gen
	send(m, "n")
	m.Update(tickMsg{gen})
	if m.playing || m.Game().Moves() != 0 || m.games[0].Moves() != 0 {
		t.Fatalf("after n, a tick of the replay played: %q, %q", m.games[0].LURD(), m.Game().LURD())
	}
	send(m, "p", "space")
	if !m.playing || !strings.Contains(view(m), "replay playing: 0 of 33 steps") {
		t.Fatalf("back on the replay's level, space:\n%s", view(m))
	}
}

// TestStoredSolutions: v replays the level's stored solutions in turn,
// saying which, and the help offers it only where there are some; a
// replay played as loaded is not the player's solution, but one played by
// hand is kept once.
func TestStoredSolutions(t *testing.T) {
	m := New(parse(t, microban1+"\n"+microban2))
	if strings.Contains(flat(view(m)), "stored solution") {
		t.Fatal("the help offers stored solutions where there are none")
	}
	send(m, "v")
	if !strings.Contains(flat(view(m)), "this level came with no stored solution") {
		t.Fatalf("v without stored solutions:\n%s", view(m))
	}
	moves, err := level.ParseLURD(solution1)
	if err != nil {
		t.Fatal(err)
	}
	slower, err := level.ParseLURD("lrdlUrrrdLullddrUluRuulDrddrruLdlUU")
	if err != nil {
		t.Fatal(err)
	}
	m.SetStored(0, []Stored{{Name: "8 pushes, 33 moves, soko fess", Moves: moves}, {Name: "8 pushes, 35 moves", Moves: slower}})
	if !strings.Contains(flat(view(m)), "v replay a stored solution (2)") {
		t.Fatalf("the help does not offer the stored solutions:\n%s", view(m))
	}
	m.SetSpeed(1000)
	cmd := send(m, "v")
	if cmd == nil || !strings.Contains(flat(view(m)), "stored solution 1 of 2: 8 pushes, 33 moves, soko fess (v: the next)") {
		t.Fatalf("v does not start the first stored solution:\n%s", view(m))
	}
	for range 40 {
		m.Update(tickMsg{m.gen})
	}
	if !m.Game().Solved() || m.Game().LURD() != solution1 {
		t.Fatalf("the stored solution did not play to the solved position: %q", m.Game().LURD())
	}
	if len(m.Game().Solutions()) != 0 {
		t.Fatalf("a stored solution replayed counts as the player's: %q", m.Game().Solutions())
	}
	send(m, "v")
	if m.Game().Moves() != 0 || !strings.Contains(flat(view(m)), "stored solution 2 of 2: 8 pushes, 35 moves") {
		t.Fatalf("v again does not load the second from the start:\n%s", view(m))
	}
	// By hand, twice the same: kept once.
	keys := map[byte]string{'u': "up", 'd': "down", 'l': "left", 'r': "right"}
	for range 2 {
		send(m, "r")
		for _, c := range strings.ToLower(solution1) {
			send(m, keys[byte(c)])
		}
	}
	if got := m.Game().Solutions(); len(got) != 1 || got[0] != solution1 {
		t.Fatalf("solutions played by hand: %q, want the one once", got)
	}
	send(m, "n")
	if strings.Contains(flat(view(m)), "v replay a stored solution") {
		t.Fatal("the next level, with none, offers stored solutions")
	}
}

// TestSavedGame: a level that came with a saved game offers it, c resumes
// it as the player's own steps (a solution reached from it is theirs), and
// a saved game that stops being legal is resumed up to its illegal step.
func TestSavedGame(t *testing.T) {
	m := New(parse(t, microban1+"\n"+microban2))
	send(m, "c")
	if !strings.Contains(flat(view(m)), "this level came with no saved game") || strings.Contains(flat(view(m)), "c resume") {
		t.Fatalf("c without a saved game:\n%s", view(m))
	}
	part, err := level.ParseLURD(solution1[:30])
	if err != nil {
		t.Fatal(err)
	}
	m.SetSaved(0, "train", part)
	if v := flat(view(m)); !strings.Contains(v, `this level has a saved game "train" (30 moves): c resumes it`) || !strings.Contains(v, "c resume the saved game (30 moves)") {
		t.Fatalf("the saved game is not offered:\n%s", view(m))
	}
	send(m, "down", "c")
	if g := m.Game(); g.LURD() != solution1[:30] || !g.Own() || !strings.Contains(flat(view(m)), `saved game "train" resumed: 30 moves`) {
		t.Fatalf("c: %q, own %v\n%s", g.LURD(), g.Own(), view(m))
	}
	send(m, "y")
	if m.Game().Moves() != 30 {
		t.Fatal("the steps ahead were not dropped on resuming")
	}
	send(m, "left", "up", "up") // the last steps of solution1, "lUU", by hand
	if g := m.Game(); !g.Solved() || len(g.Solutions()) != 1 || g.Solutions()[0] != solution1 {
		t.Fatalf("the solution reached from the saved game is not the player's: %q", g.Solutions())
	}
	send(m, "n")
	bad, err := level.ParseLURD("rdddd")
	if err != nil {
		t.Fatal(err)
	}
	m.SetSaved(1, "", bad)
	send(m, "c")
	if v := flat(view(m)); m.Game().LURD() != "rddd" || !strings.Contains(v, "saved game: step 5 is illegal here; resumed after 4 moves") {
		t.Fatalf("an illegal saved game: %q\n%s", m.Game().LURD(), view(m))
	}
	send(m, "p")
	if strings.Contains(flat(view(m)), "this level has a saved game") {
		t.Error("a level played on still offers its saved game on returning")
	}
}

// TestCheckpoint: with a checkpoint set, the session is saved when a level
// is newly solved, when the level shown changes with progress unsaved, and
// after a step once CheckpointEvery has passed; not for every step, and
// never without progress.
func TestCheckpoint(t *testing.T) {
	m := New(parse(t, microban1+"\n"+microban2))
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return clock }
	saves := 0
	m.SetCheckpoint(func() error { saves++; return nil })
	keys := map[byte]string{'u': "up", 'd': "down", 'l': "left", 'r': "right"}
	for _, c := range strings.ToLower(solution1[:10]) {
		send(m, keys[byte(c)])
	}
	if saves != 0 {
		t.Fatalf("%d saves after 10 steps within %s", saves, CheckpointEvery)
	}
	clock = clock.Add(CheckpointEvery)
	send(m, "n")
	send(m, "p")
	if saves != 1 {
		t.Fatalf("%d saves after changing levels twice with progress once, want 1", saves)
	}
	send(m, "down")
	clock = clock.Add(CheckpointEvery - time.Second)
	send(m, "up")
	if saves != 1 {
		t.Fatalf("%d saves before %s passed, want 1", saves, CheckpointEvery)
	}
	clock = clock.Add(time.Second)
	send(m, "z")
	if saves != 2 {
		t.Fatalf("%d saves after %s, want 2", saves, CheckpointEvery)
	}
	send(m, "r")
	for _, c := range strings.ToLower(solution1) {
		send(m, keys[byte(c)])
	}
	if saves != 3 || !m.Game().Solved() {
		t.Fatalf("%d saves once solved, want 3", saves)
	}
	m.SetCheckpoint(func() error { return fmt.Errorf("disk full") })
	send(m, "r", "n")
	if !strings.Contains(flat(view(m)), "not saved: disk full") {
		t.Fatalf("the save's error is not shown:\n%s", view(m))
	}
}

// The Ctrl-C key, which a terminal in raw mode sends as a key, ends the
// session as an interrupt (soko play exits 130); q ends it as a quit.
func TestCtrlCInterrupts(t *testing.T) {
	m := newModel(t)
	if cmd := send(m, "q"); cmd == nil || m.Interrupted() {
		t.Errorf("q: quit %v, interrupted %v", cmd != nil, m.Interrupted())
	}
	m = newModel(t)
	if cmd := send(m, "ctrl+c"); cmd == nil || !m.Interrupted() {
		t.Errorf("ctrl+c: quit %v, interrupted %v", cmd != nil, m.Interrupted())
	}
}
