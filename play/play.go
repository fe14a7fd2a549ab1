// Package play is `soko play`: a terminal Sokoban player built on Bubble
// Tea. Model holds the game (the position, the moves played and the moves
// that redo or a replay would play next); Update and View are plain
// functions of it, so tests drive them with messages and read the text
// without a terminal.
package play

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"soko/internal/english"
	"soko/level"
)

// step is a move played: its direction and whether it pushed a box.
type step struct {
	dir  level.Dir
	push bool
}

// Model is the game. Squares are indexed y*w + x on the level's grid.
type Model struct {
	lvl     *level.Level
	w, h    int
	wall    []bool
	goal    []bool
	box     []bool
	inside  []bool // reachable by the player from the start: drawn as floor
	player  int
	start   []bool // boxes at the start
	start0  int    // player at the start
	goals   int
	history []step
	future  []level.Dir // what redo, or the replay, plays next; future[0] first

	playing bool          // the replay is running
	every   time.Duration // between replay steps
	gen     int           // tells current ticks from stale ones
	note    string        // a message for the status line
	quit    bool
}

// New returns a model at the start of l.
func New(l *level.Level) *Model {
	m := &Model{lvl: l, w: l.Width, h: l.Height, every: time.Second / 8}
	n := m.w * m.h
	m.wall, m.goal, m.box, m.inside = make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)
	for y, row := range l.Rows {
		for x := 0; x < len(row) && x < m.w; x++ {
			i := y*m.w + x
			switch row[x] {
			case level.Wall:
				m.wall[i] = true
			case level.Goal:
				m.goal[i] = true
			case level.Box:
				m.box[i] = true
			case level.BoxOnGoal:
				m.box[i], m.goal[i] = true, true
			case level.Player:
				m.player = i
			case level.PlayerOnGoal:
				m.player, m.goal[i] = i, true
			}
			if m.goal[i] {
				m.goals++
			}
		}
	}
	stack := []int{m.player}
	m.inside[m.player] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := level.Up; d <= level.Right; d++ {
			if j, ok := m.next(i, d); ok && !m.wall[j] && !m.inside[j] {
				m.inside[j] = true
				stack = append(stack, j)
			}
		}
	}
	m.start, m.start0 = append([]bool(nil), m.box...), m.player
	return m
}

// next returns the square beside i in direction d, and false off the grid.
func (m *Model) next(i int, d level.Dir) (int, bool) {
	dx, dy := d.Delta()
	x, y := i%m.w+dx, i/m.w+dy
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return 0, false
	}
	return y*m.w + x, true
}

// Replay loads moves to be played by the replay (or redo), from the
// start, and sets the replay running at speed steps a second.
func (m *Model) Replay(moves []level.Move, speed float64) {
	m.Restart()
	m.future = m.future[:0]
	for _, mv := range moves {
		m.future = append(m.future, mv.Dir)
	}
	if speed > 0 {
		m.every = time.Duration(float64(time.Second) / speed)
	}
	m.playing = len(m.future) > 0
}

// Move plays one step by hand; it reports whether the step was legal. A
// step equal to the next one of a loaded replay keeps the rest of it.
func (m *Model) Move(d level.Dir) bool {
	if !m.step(d) {
		return false
	}
	if len(m.future) > 0 && m.future[0] == d {
		m.future = m.future[1:]
	} else {
		m.future = nil
	}
	return true
}

func (m *Model) step(d level.Dir) bool {
	j, ok := m.next(m.player, d)
	if !ok || m.wall[j] {
		return false
	}
	push := m.box[j]
	if push {
		k, ok := m.next(j, d)
		if !ok || m.wall[k] || m.box[k] {
			return false
		}
		m.box[j], m.box[k] = false, true
	}
	m.player = j
	m.history = append(m.history, step{d, push})
	return true
}

// Undo takes back the last step; it reports whether there was one.
func (m *Model) Undo() bool {
	if len(m.history) == 0 {
		return false
	}
	s := m.history[len(m.history)-1]
	m.history = m.history[:len(m.history)-1]
	dx, dy := s.dir.Delta()
	back := m.player - dx - dy*m.w
	if s.push {
		m.box[m.player+dx+dy*m.w], m.box[m.player] = false, true
	}
	m.player = back
	m.future = append([]level.Dir{s.dir}, m.future...)
	return true
}

// Redo plays the next step of the replay or of the undone steps.
func (m *Model) Redo() bool {
	if len(m.future) == 0 {
		return false
	}
	if !m.step(m.future[0]) {
		m.note = fmt.Sprintf("step %d is illegal here; the replay stops", len(m.history)+1)
		m.future, m.playing = nil, false
		return false
	}
	m.future = m.future[1:]
	return true
}

// Restart goes back to the start; the steps taken back can be redone.
func (m *Model) Restart() {
	for m.Undo() {
	}
}

// Moves and Pushes count the steps played.
func (m *Model) Moves() int { return len(m.history) }

// Pushes counts the steps played that pushed a box.
func (m *Model) Pushes() int {
	n := 0
	for _, s := range m.history {
		if s.push {
			n++
		}
	}
	return n
}

// OnGoals counts the boxes on goals.
func (m *Model) OnGoals() int {
	n := 0
	for i := range m.box {
		if m.box[i] && m.goal[i] {
			n++
		}
	}
	return n
}

// Solved reports whether every goal has a box.
func (m *Model) Solved() bool { return m.OnGoals() == m.goals }

// LURD returns the steps played.
func (m *Model) LURD() string {
	b := make([]byte, len(m.history))
	for i, s := range m.history {
		b[i] = s.dir.Letter(s.push)
	}
	return string(b)
}

// tickMsg advances the replay; gen tells ticks of an earlier run apart.
type tickMsg struct{ gen int }

func (m *Model) tick() tea.Cmd {
	gen := m.gen
	return tea.Tick(m.every, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// Init starts the replay, when one is loaded.
func (m *Model) Init() tea.Cmd {
	if m.playing {
		return m.tick()
	}
	return nil
}

// Update handles keys and replay ticks.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tickMsg:
		if msg.gen != m.gen || !m.playing {
			return m, nil
		}
		if !m.Redo() || len(m.future) == 0 {
			m.playing = false
			return m, nil
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

func (m *Model) key(k string) (tea.Model, tea.Cmd) {
	m.note = ""
	pause := func() { m.playing = false; m.gen++ }
	switch k {
	case "q", "esc", "ctrl+c":
		m.quit = true
		return m, tea.Quit
	case "up", "w", "k":
		pause()
		m.Move(level.Up)
	case "down", "s", "j":
		pause()
		m.Move(level.Down)
	case "left", "a", "h":
		pause()
		m.Move(level.Left)
	case "right", "d", "l":
		pause()
		m.Move(level.Right)
	case "u", "z", "backspace":
		pause()
		m.Undo()
	case "y":
		pause()
		m.Redo()
	case "r":
		pause()
		m.Restart()
	case "space", " ":
		if m.playing {
			pause()
		} else if len(m.future) > 0 {
			m.playing = true
			m.gen++
			return m, m.tick()
		}
	case "+", "=":
		m.every = max(m.every*2/3, 10*time.Millisecond)
	case "-", "_":
		m.every = min(m.every*3/2, 2*time.Second)
	}
	return m, nil
}

var (
	wallStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#8a7660"))
	goalStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#e0534a")).Bold(true)
	boxStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("#e0a040")).Bold(true)
	doneStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#4cc060")).Bold(true)
	playerStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#5b8def")).Bold(true)
	dimStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("#888888"))
	solvedStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#2f8a3e")).Bold(true)
)

// Board draws the position, two columns per square: ██ wall, [] box
// (green on a goal), ·· goal, @ the player.
func (m *Model) Board() string {
	var b strings.Builder
	for y := range m.h {
		for x := range m.w {
			i := y*m.w + x
			switch {
			case m.wall[i]:
				b.WriteString(wallStyle.Render("██"))
			case m.player == i && m.goal[i]:
				b.WriteString(playerStyle.Render("@") + goalStyle.Render("."))
			case m.player == i:
				b.WriteString(playerStyle.Render("@ "))
			case m.box[i] && m.goal[i]:
				b.WriteString(doneStyle.Render("[]"))
			case m.box[i]:
				b.WriteString(boxStyle.Render("[]"))
			case m.goal[i]:
				b.WriteString(goalStyle.Render("··"))
			default:
				b.WriteString("  ")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Status is the line under the board.
func (m *Model) Status() string {
	s := fmt.Sprintf("%s   moves %d   pushes %d   boxes on goals %d/%d", m.lvl.Name(), m.Moves(), m.Pushes(), m.OnGoals(), m.goals)
	if n := len(m.future); n > 0 {
		state := "paused"
		if m.playing {
			state = "playing"
		}
		s += fmt.Sprintf("   replay %s, step %d of %d", state, len(m.history), len(m.history)+n)
	}
	return s
}

const help = "arrows/wasd/hjkl move · u undo · y redo · r restart · space play/pause · +/- speed · q quit"

// View draws the board, the counters, the solved banner and the keys.
func (m *Model) View() tea.View {
	var b strings.Builder
	b.WriteString(m.Board())
	b.WriteByte('\n')
	b.WriteString(m.Status())
	b.WriteByte('\n')
	if m.Solved() {
		b.WriteString(solvedStyle.Render(fmt.Sprintf(" SOLVED in %s, %s! ", english.Count(m.Moves(), "move", "moves"), english.Count(m.Pushes(), "push", "pushes"))))
		b.WriteByte('\n')
	}
	if m.note != "" {
		b.WriteString(m.note + "\n")
	}
	b.WriteString(dimStyle.Render(help))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}
