package play

import (
	"fmt"

	"soko/level"
	"soko/sokoban"
)

// step is a move played: its direction and whether it pushed a box.
type step struct {
	dir  level.Dir
	push bool
}

// Game is one level being played: the position, the steps played, and the
// steps that redo or the replay plays next. The rules of a step are
// sokoban's (Position.Step); the drawing's squares are indexed y*w + x on
// the level's grid.
type Game struct {
	lvl     *level.Level
	w, h    int
	b       *sokoban.Board
	pos     *sokoban.Position
	wall    []bool
	goal    []bool
	still   []bool // boxes outside the player's region: they never move
	goals   int
	history []step
	future  []level.Dir // what redo, or the replay, plays next; future[0] first

	// replay is the length of the solution loaded by Replay (0: none), and
	// onReplay whether history and future are still that solution, so that
	// the status can speak of the replay only while it is one.
	replay   int
	onReplay bool
	// touched is set by the first step played, by hand, redo or replay: the
	// levels touched are those whose moves soko play prints at the end.
	touched bool

	// stored are the solutions the level came with (a .sok file's), which
	// the v key replays in turn; nextStored is the one it replays next.
	stored     []Stored
	nextStored int
	// solutions are the player's solutions of the session, each LURD once,
	// in the order found: the steps played whenever they solved the level,
	// unless they were a replay played as loaded.
	solutions []string
	// saved is the game in progress the level came with (a .sok file's
	// snapshot), which the c key resumes; savedName names it.
	saved     []level.Move
	savedName string
	// changes counts the steps played and taken back, so that the model
	// knows when there is progress to save.
	changes int
}

// Stored is a solution the level came with: its moves and what to call
// it ("8 pushes, 33 moves, soko fess").
type Stored struct {
	Name  string
	Moves []level.Move
}

// newGame returns a game at the start of l, a level as level.Parse returns
// them (closed, with one player), which sokoban.NewBoard always indexes.
func newGame(l *level.Level) *Game {
	b, err := sokoban.NewBoard(l)
	if err != nil {
		panic(fmt.Sprintf("play: %v", err))
	}
	g := &Game{lvl: l, w: l.Width, h: l.Height, b: b, pos: b.Start()}
	n := g.w * g.h
	g.wall, g.goal, g.still = make([]bool, n), make([]bool, n), make([]bool, n)
	for y, row := range l.Rows {
		for x := 0; x < len(row) && x < g.w; x++ {
			i := y*g.w + x
			switch row[x] {
			case level.Wall:
				g.wall[i] = true
			case level.Goal, level.PlayerOnGoal:
				g.goal[i] = true
			case level.BoxOnGoal:
				g.goal[i] = true
				g.still[i] = b.At(x, y) == sokoban.None
			case level.Box:
				g.still[i] = b.At(x, y) == sokoban.None
			}
			if g.goal[i] {
				g.goals++
			}
		}
	}
	return g
}

// Level is the level played.
func (g *Game) Level() *level.Level { return g.lvl }

// inside reports whether cell i is floor the player may walk on (the
// player's region from the start): drawn as floor.
func (g *Game) inside(i int) bool { return g.b.At(i%g.w, i/g.w) != sokoban.None }

// box reports whether a box stands on cell i.
func (g *Game) box(i int) bool {
	if s := g.b.At(i%g.w, i/g.w); s != sokoban.None {
		return g.pos.HasBox(s)
	}
	return g.still[i]
}

// player returns the player's cell.
func (g *Game) player() int {
	x, y := g.b.XY(g.pos.Player())
	return y*g.w + x
}

// load restarts the game with moves as the replay to play next.
func (g *Game) load(moves []level.Move) {
	g.Restart()
	g.future = g.future[:0]
	for _, mv := range moves {
		g.future = append(g.future, mv.Dir)
	}
	g.replay, g.onReplay = len(moves), true
}

// Move plays one step by hand; it reports whether the step was legal. A
// step equal to the next one of the replay or redo keeps the rest of it;
// any other drops it.
func (g *Game) Move(d level.Dir) bool {
	if !g.step(d) {
		return false
	}
	if len(g.future) > 0 && g.future[0] == d {
		g.future = g.future[1:]
	} else {
		g.future, g.onReplay = nil, false
	}
	g.keepSolution()
	return true
}

// keepSolution adds the steps played to the session's solutions when they
// solve the level and are the player's: not a replay played as loaded.
func (g *Game) keepSolution() {
	if !g.Solved() || g.onReplay || len(g.history) == 0 {
		return
	}
	lurd := g.LURD()
	for _, s := range g.solutions {
		if s == lurd {
			return
		}
	}
	g.solutions = append(g.solutions, lurd)
}

// Solutions returns the player's solutions of the session, in LURD, in
// the order found: each distinct sequence of steps that stood solved,
// played by hand or redone, but not a replay played as it was loaded.
func (g *Game) Solutions() []string { return g.solutions }

// Stored returns the solutions the level came with.
func (g *Game) Stored() []Stored { return g.stored }

func (g *Game) step(d level.Dir) bool {
	to, push, ok := g.pos.Step(d)
	if !ok {
		return false
	}
	if push {
		g.pos.Apply(sokoban.Push{Box: to, Dir: d})
	} else {
		g.pos.SetPlayer(to)
	}
	g.history = append(g.history, step{d, push})
	g.touched = true
	g.changes++
	return true
}

// Undo takes back the last step; it reports whether there was one.
func (g *Game) Undo() bool {
	if len(g.history) == 0 {
		return false
	}
	s := g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
	g.changes++
	if s.push {
		g.pos.Undo(sokoban.Push{Box: g.pos.Player(), Dir: s.dir})
	} else {
		g.pos.SetPlayer(g.b.Next(g.pos.Player(), s.dir^1))
	}
	g.future = append([]level.Dir{s.dir}, g.future...)
	return true
}

// Redo plays the next step of the replay or of the undone steps; it
// reports whether there was one and it was legal. An illegal step (a
// replay that does not fit the level) drops the rest: the replay is then
// the steps played of it, still not the player's.
func (g *Game) Redo() bool {
	if len(g.future) == 0 {
		return false
	}
	if !g.step(g.future[0]) {
		g.future = nil
		if g.onReplay {
			g.replay = len(g.history)
		}
		return false
	}
	g.future = g.future[1:]
	g.keepSolution()
	return true
}

// resume plays the saved game from the start, as the player's own steps
// (a solution they reach is theirs), dropping the steps ahead; it returns
// how many of its steps were legal.
func (g *Game) resume() int {
	g.Restart()
	g.future, g.replay, g.onReplay = nil, 0, false
	for i, mv := range g.saved {
		if !g.step(mv.Dir) {
			return i
		}
	}
	g.keepSolution()
	return len(g.saved)
}

// Own reports whether the steps played are the player's: played by hand,
// redone or resumed, and not a replay still as it was loaded. Only those
// are a game in progress worth saving.
func (g *Game) Own() bool { return !g.onReplay || g.replay == 0 }

// Touched reports whether a step was played on the level this session.
func (g *Game) Touched() bool { return g.touched }

// Restart goes back to the start; the steps taken back can be redone.
func (g *Game) Restart() {
	for g.Undo() {
	}
}

// Moves counts the steps played.
func (g *Game) Moves() int { return len(g.history) }

// Pushes counts the steps played that pushed a box.
func (g *Game) Pushes() int {
	n := 0
	for _, s := range g.history {
		if s.push {
			n++
		}
	}
	return n
}

// OnGoals counts the boxes on goals: those the player can move, and those
// on goals outside the player's region (sokoban.Board.Fixed).
func (g *Game) OnGoals() int { return g.pos.OnGoal() + g.b.Fixed }

// Solved reports whether every goal has a box. A board with a box or goal
// the player can never reach (sokoban.Board.Impossible) is never solved.
func (g *Game) Solved() bool { return g.pos.Solved() && g.b.Impossible == "" }

// LURD returns the steps played.
func (g *Game) LURD() string {
	b := make([]byte, len(g.history))
	for i, s := range g.history {
		b[i] = s.dir.Letter(s.push)
	}
	return string(b)
}
