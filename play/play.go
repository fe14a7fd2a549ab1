// Package play is `soko play`: a terminal Sokoban player built on Bubble
// Tea. Model holds the levels of a run, each a Game (the position, the
// moves played and the moves that redo or a replay would play next), and
// which one is shown; Update and View are plain functions of it, so tests
// drive them with messages and read the text without a terminal.
package play

import (
	"fmt"
	"math"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"soko/internal/english"
	"soko/level"
)

// MinSpeed is the slowest replay, in steps a second: the - key stops
// there. The + key stops at maxKeySpeed, beyond what is worth watching; a
// faster speed set by SetSpeed is kept until - is pressed.
const (
	MinSpeed    = 0.5
	maxKeySpeed = 100
)

// Model is the player: the games of the levels named, one shown at a
// time, and the pace of the replay.
type Model struct {
	games []*Game
	cur   int // the game shown

	speed   float64 // replay and redo steps a second
	playing bool    // the replay (or redo) is running
	gen     int     // tells current ticks from stale ones
	note    string  // a message for the line under the status

	width, height int // the window, 0 until the program reports it

	interrupted bool // ended by the Ctrl-C key, which raw mode reads as a key, not a signal

	// save, when set, writes the session's progress (SetCheckpoint);
	// saved is what it last saw.
	save  func() error
	saved checkpoint
	now   func() time.Time
}

// checkpoint is the progress of a session when it was last saved.
type checkpoint struct {
	changes, solutions, cur int
	at                      time.Time
}

// CheckpointEvery is how often a session's moves are saved while it is
// played (SetCheckpoint), at most: an interrupted session loses no more.
const CheckpointEvery = 30 * time.Second

// New returns a model at the start of the first of ls, which must name at
// least one level.
func New(ls []*level.Level) *Model {
	m := &Model{speed: 8, now: time.Now}
	for _, l := range ls {
		m.games = append(m.games, newGame(l))
	}
	return m
}

// Game is the game shown.
func (m *Model) Game() *Game { return m.games[m.cur] }

// Interrupted reports whether the session was ended by the Ctrl-C key:
// an interrupt, as the signal is.
func (m *Model) Interrupted() bool { return m.interrupted }

// Played returns, in their order, the games of the levels where a step was
// played; when there are none, the game shown.
func (m *Model) Played() []*Game {
	var out []*Game
	for _, g := range m.games {
		if g.touched {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		out = append(out, m.Game())
	}
	return out
}

// SetSpeed sets the pace of the replay and of redo played with Space, in
// steps a second.
func (m *Model) SetSpeed(stepsPerSecond float64) { m.speed = stepsPerSecond }

// Replay loads moves into the game shown, from its start, to be played by
// the replay (or redo), and sets the replay running.
func (m *Model) Replay(moves []level.Move) {
	m.Game().load(moves)
	m.playing = len(moves) > 0
}

// SetStored gives level i (0-based, in the order of New) the solutions
// it came with, which the v key replays in turn.
func (m *Model) SetStored(i int, stored []Stored) {
	m.games[i].stored = stored
	m.games[i].nextStored = 0
}

// SetSaved gives level i (0-based) the game in progress it came with,
// named name ("" for none), which the c key resumes.
func (m *Model) SetSaved(i int, name string, moves []level.Move) {
	m.games[i].saved, m.games[i].savedName = moves, name
	if i == m.cur {
		m.note = m.savedNote()
	}
}

// savedNote offers the shown level's saved game, when it has one and
// nothing was played on it yet.
func (m *Model) savedNote() string {
	g := m.Game()
	if len(g.saved) == 0 || g.Moves() > 0 {
		return ""
	}
	return fmt.Sprintf("this level has a saved game%s (%s): c resumes it", savedName(g.savedName), english.Count(len(g.saved), "move", "moves"))
}

func savedName(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" %q", name)
}

// resume puts the shown level at its saved game, saying so.
func (m *Model) resume() {
	g := m.Game()
	if len(g.saved) == 0 {
		m.note = "this level came with no saved game"
		return
	}
	if n := g.resume(); n < len(g.saved) {
		m.note = fmt.Sprintf("saved game%s: step %d is illegal here; resumed after %s", savedName(g.savedName), n+1, english.Count(n, "move", "moves"))
		return
	}
	m.note = fmt.Sprintf("saved game%s resumed: %s", savedName(g.savedName), english.Count(len(g.saved), "move", "moves"))
}

// SetCheckpoint sets save, which writes the session's progress while it
// is played: when a level is newly solved, when the level shown changes,
// and otherwise at most every CheckpointEvery, each time only when a step
// was played or taken back since. It runs in Update, between two frames;
// an error it returns is shown under the status.
func (m *Model) SetCheckpoint(save func() error) {
	m.save = save
	m.saved = m.progress()
}

// progress is the session's progress now.
func (m *Model) progress() checkpoint {
	p := checkpoint{cur: m.cur, at: m.now()}
	for _, g := range m.games {
		p.changes += g.changes
		p.solutions += len(g.solutions)
	}
	return p
}

// checkpoint saves the session's progress when it is time (SetCheckpoint).
func (m *Model) checkpoint() {
	if m.save == nil {
		return
	}
	p := m.progress()
	if p.changes == m.saved.changes {
		m.saved.cur = p.cur // nothing new: moving between levels is no progress
		return
	}
	if p.solutions == m.saved.solutions && p.cur == m.saved.cur && p.at.Sub(m.saved.at) < CheckpointEvery {
		return
	}
	m.saved = p
	if err := m.save(); err != nil {
		m.note = "not saved: " + err.Error()
	}
}

// Games returns every game, in the order of the levels given to New.
func (m *Model) Games() []*Game { return m.games }

// replayStored loads the game shown's next stored solution as its replay
// and starts it, saying which it is; without one it says so.
func (m *Model) replayStored() tea.Cmd {
	g := m.Game()
	if len(g.stored) == 0 {
		m.note = "this level came with no stored solution"
		return nil
	}
	i := g.nextStored % len(g.stored)
	g.nextStored = i + 1
	s := g.stored[i]
	m.Replay(s.Moves)
	m.gen++
	m.note = fmt.Sprintf("stored solution %d of %d: %s", i+1, len(g.stored), s.Name)
	if len(g.stored) > 1 {
		m.note += " (v: the next)"
	}
	if !m.playing {
		return nil
	}
	return m.tick()
}

// ReplayStored shows level i and starts its first stored solution, as the
// v key does.
func (m *Model) ReplayStored(i int) {
	m.cur = i
	m.games[i].nextStored = 0
	m.replayStored()
}

// speedText is the speed as the status and notes write it: "8 steps/s".
func (m *Model) speedText() string {
	return strconv.FormatFloat(math.Round(m.speed*10)/10, 'f', -1, 64) + " steps/s"
}

// tickMsg advances the replay; gen tells ticks of an earlier run apart.
type tickMsg struct{ gen int }

func (m *Model) tick() tea.Cmd {
	gen := m.gen
	every := time.Duration(float64(time.Second) / m.speed)
	return tea.Tick(every, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// Init starts the replay, when one is loaded.
func (m *Model) Init() tea.Cmd {
	if m.playing {
		return m.tick()
	}
	return nil
}

// Update handles keys, the window's size and replay ticks, and saves the
// progress when it is time (SetCheckpoint).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	model, cmd := m.update(msg)
	m.checkpoint()
	return model, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tickMsg:
		if msg.gen != m.gen || !m.playing {
			return m, nil
		}
		if !m.redo() || len(m.Game().future) == 0 {
			m.playing = false
			return m, nil
		}
		return m, m.tick()
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

// redo plays the next step ahead, saying so when it is illegal.
func (m *Model) redo() bool {
	g := m.Game()
	if len(g.future) == 0 {
		return false
	}
	if !g.Redo() {
		m.note = fmt.Sprintf("step %d is illegal here; the steps ahead are dropped", g.Moves()+1)
		return false
	}
	return true
}

// move plays a step by hand, saying so when it leaves the replay.
func (m *Model) move(d level.Dir) {
	g := m.Game()
	was := g.onReplay && len(g.future) > 0
	if g.Move(d) && was && !g.onReplay {
		m.note = "off the replay: its remaining steps are dropped"
	}
}

// show moves to the game i places after the one shown (before, when i is
// negative), pausing the replay; each game keeps its position. Where there
// is no such game it says why and changes nothing.
func (m *Model) show(i int) {
	j := m.cur + i
	switch {
	case len(m.games) == 1:
		m.note = "this is the only level: name several (such as microban:1-10) to move between them"
	case j < 0:
		m.note = "this is the first level"
	case j >= len(m.games):
		m.note = "this is the last level"
	default:
		m.playing = false
		m.gen++
		m.cur = j
		m.note = m.savedNote()
	}
}

// moveKeys are the keys that step the player: the arrows, WASD and vi's.
var moveKeys = map[string]level.Dir{
	"up": level.Up, "w": level.Up, "k": level.Up,
	"down": level.Down, "s": level.Down, "j": level.Down,
	"left": level.Left, "a": level.Left, "h": level.Left,
	"right": level.Right, "d": level.Right, "l": level.Right,
}

func (m *Model) key(k string) (tea.Model, tea.Cmd) {
	m.note = ""
	pause := func() { m.playing = false; m.gen++ }
	g := m.Game()
	if d, ok := moveKeys[k]; ok {
		pause()
		m.move(d)
		return m, nil
	}
	switch k {
	case "ctrl+c":
		m.interrupted = true
		return m, tea.Quit
	case "q", "esc":
		return m, tea.Quit
	case "u", "z", "backspace":
		pause()
		g.Undo()
	case "y":
		pause()
		m.redo()
	case "r":
		pause()
		g.Restart()
	case "n", "pgdown":
		m.show(1)
	case "p", "pgup":
		m.show(-1)
	case "space", " ":
		if m.playing {
			pause()
		} else if len(g.future) > 0 {
			m.playing = true
			m.gen++
			return m, m.tick()
		}
	case "v":
		pause()
		return m, m.replayStored()
	case "c":
		pause()
		m.resume()
	case "+", "=":
		if m.speed < maxKeySpeed {
			m.speed = min(m.speed*1.5, maxKeySpeed)
		}
		m.note = "speed " + m.speedText()
	case "-", "_":
		m.speed = max(m.speed/1.5, MinSpeed)
		m.note = "speed " + m.speedText()
	}
	return m, nil
}
