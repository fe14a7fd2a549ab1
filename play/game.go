package play

import (
	"soko/level"
)

// step is a move played: its direction and whether it pushed a box.
type step struct {
	dir  level.Dir
	push bool
}

// Game is one level being played: the position, the steps played, and the
// steps that redo or the replay plays next. Squares are indexed y*w + x on
// the level's grid.
type Game struct {
	lvl     *level.Level
	w, h    int
	wall    []bool
	goal    []bool
	box     []bool
	inside  []bool // within the walls (the player's region from the start): drawn as floor
	player  int
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
}

// newGame returns a game at the start of l.
func newGame(l *level.Level) *Game {
	g := &Game{lvl: l, w: l.Width, h: l.Height}
	n := g.w * g.h
	g.wall, g.goal, g.box, g.inside = make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)
	for y, row := range l.Rows {
		for x := 0; x < len(row) && x < g.w; x++ {
			i := y*g.w + x
			switch row[x] {
			case level.Wall:
				g.wall[i] = true
			case level.Goal:
				g.goal[i] = true
			case level.Box:
				g.box[i] = true
			case level.BoxOnGoal:
				g.box[i], g.goal[i] = true, true
			case level.Player:
				g.player = i
			case level.PlayerOnGoal:
				g.player, g.goal[i] = i, true
			}
			if g.goal[i] {
				g.goals++
			}
		}
	}
	stack := []int{g.player}
	g.inside[g.player] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := level.Up; d <= level.Right; d++ {
			if j, ok := g.next(i, d); ok && !g.wall[j] && !g.inside[j] {
				g.inside[j] = true
				stack = append(stack, j)
			}
		}
	}
	return g
}

// Level is the level played.
func (g *Game) Level() *level.Level { return g.lvl }

// next returns the square beside i in direction d, and false off the grid.
func (g *Game) next(i int, d level.Dir) (int, bool) {
	dx, dy := d.Delta()
	x, y := i%g.w+dx, i/g.w+dy
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return 0, false
	}
	return y*g.w + x, true
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
	return true
}

func (g *Game) step(d level.Dir) bool {
	j, ok := g.next(g.player, d)
	if !ok || g.wall[j] {
		return false
	}
	push := g.box[j]
	if push {
		k, ok := g.next(j, d)
		if !ok || g.wall[k] || g.box[k] {
			return false
		}
		g.box[j], g.box[k] = false, true
	}
	g.player = j
	g.history = append(g.history, step{d, push})
	g.touched = true
	return true
}

// Undo takes back the last step; it reports whether there was one.
func (g *Game) Undo() bool {
	if len(g.history) == 0 {
		return false
	}
	s := g.history[len(g.history)-1]
	g.history = g.history[:len(g.history)-1]
	dx, dy := s.dir.Delta()
	back := g.player - dx - dy*g.w
	if s.push {
		g.box[g.player+dx+dy*g.w], g.box[g.player] = false, true
	}
	g.player = back
	g.future = append([]level.Dir{s.dir}, g.future...)
	return true
}

// Redo plays the next step of the replay or of the undone steps; it
// reports whether there was one and it was legal. An illegal step (a
// replay that does not fit the level) drops the rest.
func (g *Game) Redo() bool {
	if len(g.future) == 0 {
		return false
	}
	if !g.step(g.future[0]) {
		g.future, g.onReplay = nil, false
		return false
	}
	g.future = g.future[1:]
	return true
}

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

// OnGoals counts the boxes on goals.
func (g *Game) OnGoals() int {
	n := 0
	for i := range g.box {
		if g.box[i] && g.goal[i] {
			n++
		}
	}
	return n
}

// Solved reports whether every goal has a box.
func (g *Game) Solved() bool { return g.OnGoals() == g.goals }

// LURD returns the steps played.
func (g *Game) LURD() string {
	b := make([]byte, len(g.history))
	for i, s := range g.history {
		b[i] = s.dir.Letter(s.push)
	}
	return string(b)
}
