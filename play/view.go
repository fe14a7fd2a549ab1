package play

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"soko/internal/english"
)

var (
	wallStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#8a7660"))
	floorStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("#3c3c3c"))
	goalStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#e0534a")).Bold(true)
	boxStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("#e0a040")).Bold(true)
	doneStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#4cc060")).Bold(true)
	playerStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#5b8def")).Bold(true)
	dimStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("#888888"))
	warnStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#e0a040")).Bold(true)
	solvedStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#2f8a3e")).Bold(true)
)

// Board draws the position. Wide, two columns a square: ██ wall, ░░
// floor, [] box, ** box on a goal (XSB's *, and green: told by its shape,
// not its colour alone), ·· goal, @ the player, blank outside the walls. Narrow, one column a square, for a small window: █ wall, ░
// floor, and the XSB letters $ box, * box on a goal, . goal, @ player, +
// player on a goal.
func (g *Game) Board(wide bool) string {
	var b strings.Builder
	for y := range g.h {
		for x := range g.w {
			b.WriteString(g.square(y*g.w+x, wide))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// square draws square i, two columns wide or one.
func (g *Game) square(i int, wide bool) string {
	pick := func(two, one string) string {
		if wide {
			return two
		}
		return one
	}
	switch {
	case g.wall[i]:
		return wallStyle.Render(pick("██", "█"))
	case g.player() == i && g.goal[i]:
		if wide {
			return playerStyle.Render("@") + goalStyle.Render(".")
		}
		return playerStyle.Render("+")
	case g.player() == i:
		return playerStyle.Render(pick("@ ", "@"))
	case g.box(i) && g.goal[i]:
		return doneStyle.Render(pick("**", "*"))
	case g.box(i):
		return boxStyle.Render(pick("[]", "$"))
	case g.goal[i]:
		return goalStyle.Render(pick("··", "."))
	case g.inside(i):
		return floorStyle.Render(pick("░░", "░"))
	}
	return pick("  ", " ")
}

// status is the line under the board, in pieces that wrap apart: the
// level's address (and its place among the levels named), the counters,
// and the replay or redo when there are steps ahead.
func (m *Model) status() []string {
	g := m.Game()
	name := g.lvl.Name()
	if len(m.games) > 1 {
		name += fmt.Sprintf(" (level %d of %d)", m.cur+1, len(m.games))
	}
	s := []string{name, fmt.Sprintf("moves %d", g.Moves()), fmt.Sprintf("pushes %d", g.Pushes()),
		fmt.Sprintf("boxes on goals %d/%d", g.OnGoals(), g.goals)}
	done, ahead := g.Moves(), len(g.future)
	switch {
	case g.onReplay && ahead > 0 && m.playing:
		s = append(s, fmt.Sprintf("replay playing: %d of %d steps, %s", done, done+ahead, m.speedText()))
	case g.onReplay && ahead > 0:
		s = append(s, fmt.Sprintf("replay stopped after %d of %d steps: space plays on at %s", done, done+ahead, m.speedText()))
	case g.onReplay && g.replay > 0:
		s = append(s, fmt.Sprintf("replay played to its end (%s)", english.Count(g.replay, "step", "steps")))
	case ahead > 0 && m.playing:
		s = append(s, fmt.Sprintf("redoing: %s to go at %s", english.Count(ahead, "step", "steps"), m.speedText()))
	case ahead > 0:
		s = append(s, fmt.Sprintf("%s undone: y redoes one, space plays them", english.Count(ahead, "step", "steps")))
	}
	return s
}

// help lists the keys, in pieces that wrap apart; "n/p" only when there
// are levels to move between.
func (m *Model) help() []string {
	h := []string{"arrows/wasd/hjkl move", "u undo", "y redo", "r restart"}
	if n := len(m.Game().stored); n > 0 {
		h = append(h, fmt.Sprintf("v replay a stored solution (%d)", n))
	}
	if n := len(m.Game().saved); n > 0 {
		h = append(h, fmt.Sprintf("c resume the saved game (%s)", english.Count(n, "move", "moves")))
	}
	if len(m.games) > 1 {
		h = append(h, "n/pgdn next level", "p/pgup previous")
	}
	return append(h, "space play/pause", "+/- speed", "q quit")
}

// wrap joins pieces with sep into lines at most width columns wide (one
// line when width is 0), breaking between pieces, and within a piece (at a
// space or a slash, else anywhere) only when it is wider than a line.
func wrap(pieces []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, p := range pieces {
		switch {
		case cur == "":
			cur = p
		case width <= 0 || ansi.StringWidth(cur+sep+p) <= width:
			cur += sep + p
		default:
			lines = append(lines, cur)
			cur = p
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if width <= 0 {
		return lines
	}
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(ansi.Wrap(l, width, "/"), "\n")...)
	}
	return out
}

// text is what goes under the board at the given width: the status, the
// solved banner, the note, the keys; with small, a line saying the board is
// drawn small and what size of window shows it whole.
func (m *Model) text(width int, small bool) []string {
	g := m.Game()
	var lines []string
	lines = append(lines, wrap(m.status(), "   ", width)...)
	if g.Solved() {
		banner := fmt.Sprintf(" SOLVED in %s, %s! ", english.Count(g.Moves(), "move", "moves"), english.Count(g.Pushes(), "push", "pushes"))
		for _, l := range wrap([]string{banner}, "", width) {
			lines = append(lines, solvedStyle.Render(l))
		}
	}
	if small {
		w, h := m.fullSize()
		msg := fmt.Sprintf("small window: one column a square (%d×%d or larger shows the full board)", w, h)
		for _, l := range wrap(strings.Fields(msg), " ", width) {
			lines = append(lines, warnStyle.Render(l))
		}
	}
	if m.note != "" {
		lines = append(lines, wrap(strings.Fields(m.note), " ", width)...)
	}
	for _, l := range wrap(m.help(), " · ", width) {
		lines = append(lines, dimStyle.Render(l))
	}
	return lines
}

// fullSize is the smallest window, no narrower than the present one, that
// shows the board two columns a square with every line under it unbroken
// by the wrap of a piece.
func (m *Model) fullSize() (w, h int) {
	g := m.Game()
	w = max(m.width, 2*g.w)
	for _, p := range append(m.status(), m.help()...) {
		w = max(w, ansi.StringWidth(p))
	}
	return w, g.h + 1 + len(m.text(w, false))
}

// render is the screen: the board and the lines under it. Once the window's
// size is known, all of it fits: the board is drawn two columns a square,
// else one; else the board with its status only, and a line saying the
// keys are not shown; else no board, but a message asking for a larger
// window above the level's address and the keys that still work.
func (m *Model) render() string {
	g := m.Game()
	if m.width <= 0 || m.height <= 0 {
		return g.Board(true) + "\n" + strings.Join(m.text(0, false), "\n")
	}
	for _, wide := range []bool{true, false} {
		cols := 1
		if wide {
			cols = 2
		}
		text := m.text(m.width, !wide)
		if cols*g.w <= m.width && g.h+1+len(text) <= m.height {
			return g.Board(wide) + "\n" + strings.Join(text, "\n")
		}
	}
	// Room for the board and its status but not the keys: the status, and
	// a line saying the keys are left out and what size shows them.
	w, h := m.fullSize()
	for _, wide := range []bool{true, false} {
		cols := 1
		if wide {
			cols = 2
		}
		text := wrap(m.status(), "   ", m.width)
		msg := fmt.Sprintf("keys hidden: %d×%d shows them", w, h)
		for _, l := range wrap(strings.Fields(msg), " ", m.width) {
			text = append(text, warnStyle.Render(l))
		}
		if cols*g.w <= m.width && g.h+1+len(text) <= m.height {
			return g.Board(wide) + "\n" + strings.Join(text, "\n")
		}
	}
	msg := fmt.Sprintf("The window (%d×%d) is too small for this level (%d×%d squares): enlarge it to %d×%d.", m.width, m.height, g.w, g.h, w, h)
	var lines []string
	for _, l := range wrap(strings.Fields(msg), " ", m.width) {
		lines = append(lines, warnStyle.Render(l))
	}
	lines = append(lines, wrap(m.status()[:1], "", m.width)...)
	if m.note != "" {
		lines = append(lines, wrap(strings.Fields(m.note), " ", m.width)...)
	}
	keys := []string{"q quit"}
	if len(m.games) > 1 {
		keys = []string{"n next", "p previous", "q quit"}
	}
	for _, l := range wrap(keys, " · ", m.width) {
		lines = append(lines, dimStyle.Render(l))
	}
	return strings.Join(lines[:min(len(lines), m.height)], "\n")
}

// View draws the screen in the terminal's alternate screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}
