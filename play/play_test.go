package play

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"soko/level"
)

const microban1 = "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n"

// solution1 solves Microban 1 in 33 moves and 8 pushes.
const solution1 = "dlUrrrdLullddrUluRuulDrddrruLdlUU"

func newModel(t *testing.T) *Model {
	t.Helper()
	ls, err := level.ParseString(microban1, "microban")
	if err != nil {
		t.Fatal(err)
	}
	ls[0].Index = 1
	return New(ls[0])
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
	if m.Moves() != 3 || m.Pushes() != 1 || m.LURD() != "dlU" {
		t.Fatalf("after d l U: %d moves, %d pushes, %q", m.Moves(), m.Pushes(), m.LURD())
	}
	if v := view(m); !strings.Contains(v, "moves 3   pushes 1") {
		t.Fatalf("view after three moves:\n%s", v)
	}
	send(m, "left") // into a wall: nothing happens
	if m.Moves() != 3 {
		t.Fatalf("a step into a wall was played: %q", m.LURD())
	}
	send(m, "u")
	if m.LURD() != "dl" || m.Pushes() != 0 {
		t.Fatalf("after undo: %q", m.LURD())
	}
	send(m, "y")
	if m.LURD() != "dlU" {
		t.Fatalf("after redo: %q", m.LURD())
	}
	send(m, "r")
	if m.Moves() != 0 || m.OnGoals() != 1 || !strings.Contains(view(m), "replay paused, step 0 of 3") {
		t.Fatalf("after restart:\n%s", view(m))
	}
	// The restart keeps the steps for redo; a different move drops them.
	send(m, "right")
	send(m, "y")
	if m.LURD() != "r" {
		t.Fatalf("redo after a new move: %q", m.LURD())
	}
}

func TestPlayToSolved(t *testing.T) {
	m := newModel(t)
	keys := map[byte]string{'u': "up", 'd': "down", 'l': "left", 'r': "right"}
	for _, c := range strings.ToLower(solution1) {
		send(m, keys[byte(c)])
	}
	if !m.Solved() || m.Moves() != 33 || m.Pushes() != 8 || m.LURD() != solution1 {
		t.Fatalf("after the solution: solved %v, %d moves, %d pushes, %q", m.Solved(), m.Moves(), m.Pushes(), m.LURD())
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
	m.Replay(moves, 1000)
	cmd := m.Init()
	if cmd == nil {
		t.Fatal("a loaded replay does not start")
	}
	if v := view(m); !strings.Contains(v, "replay playing, step 0 of 33") {
		t.Fatalf("replay view:\n%s", v)
	}
	// Drive the ticks by hand, as the program would.
	for i := 0; i < 10; i++ {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if m.Moves() != 10 || cmd == nil {
		t.Fatalf("after 10 ticks: %d moves", m.Moves())
	}
	send(m, "space") // pause: ticks of the old run are ignored
	m.Update(tickMsg{m.gen - 1})
	if m.Moves() != 10 || m.playing {
		t.Fatalf("paused replay moved on: %d", m.Moves())
	}
	if v := view(m); !strings.Contains(v, "replay paused, step 10 of 33") {
		t.Fatalf("paused view:\n%s", v)
	}
	send(m, "backspace")
	if m.Moves() != 9 {
		t.Fatalf("undo during a replay: %d", m.Moves())
	}
	cmd = send(m, "space")
	for cmd != nil {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if !m.Solved() || m.LURD() != solution1 {
		t.Fatalf("replay ended unsolved: %q", m.LURD())
	}
}

func TestIllegalReplayStops(t *testing.T) {
	m := newModel(t)
	moves, _ := level.ParseLURD("dlUU" + "llll")
	m.Replay(moves, 1000)
	for cmd := m.Init(); cmd != nil; {
		_, cmd = m.Update(tickMsg{m.gen})
	}
	if m.LURD() != "dlUU" || m.playing || !strings.Contains(view(m), "illegal") {
		t.Fatalf("after an illegal step: %q\n%s", m.LURD(), view(m))
	}
}
