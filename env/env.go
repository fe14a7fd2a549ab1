// Package env is a gym-style learning environment over Sokoban levels, the
// substrate of the learning solvers (seed 001 §2.2.2, Alg. 7; seed 003 §2,
// whose agents learn in an environment of this kind).
//
// An Env holds one episode at a time on one of its levels: Reset starts an
// episode and Step(action) returns (observation, reward, done, info), as in
// the Gym interface. It is seeded and deterministic: the only randomness is
// the choice of level at each Reset, drawn from Config.Seed.
//
//   - Actions are single player moves (Moves: 4 actions, in the order of
//     level.Dir) or pushes (Pushes: the player walks to the box and pushes
//     it; an action names the box's grid cell and the direction, so the
//     action space is fixed per board size, see PushAction). An action that
//     does not change the state — a move into a wall, a push into a wall or
//     a box, a push of no box — leaves it as it was (001 Table 2, "looping
//     cells") and Info.Changed is false; Legal lists the actions that do.
//   - Observations are board planes ready for a network: walls, goals,
//     boxes and the player, one float32 per grid cell each (Observation).
//   - Rewards are 001's (Alg. 7, getReward) by default: −1 for an action
//     that changes nothing, 0 for one that ends in a deadlock, 100 for
//     solving the level, 10 when h = h1 + h2 (001 Eq. 6–8, Minkowski
//     distances) decreases, 1 otherwise. Boxoban is the common shaping of
//     the Boxoban environments instead: −0.1 per step, +1 for a box pushed
//     onto a goal, −1 for one pushed off, +10 for solving.
//   - An episode ends when the level is solved (at Reset already, for a
//     level solved at its start), when Config.MaxSteps actions
//     were taken (Info.Truncated), or, with Config.Deadlocks, when a push
//     leaves a deadlock the deadlock package detects: a box on a dead square
//     (000 Alg. 2) or a frozen box group or an overfull wall segment
//     (000 §4.2.1, 001 Alg. 2) (Info.Deadlock).
//
// StepMoves applies a whole move sequence as one action, for agents whose
// actions are macros (001 §3's Q* runs A* to a sub-goal as one action).
package env

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"soko/deadlock"
	"soko/internal/minkowski"
	"soko/level"
	"soko/sokoban"
)

// Mode is what one action does.
type Mode uint8

// The action modes.
const (
	Moves  Mode = iota // one player step; 4 actions, in level.Dir order
	Pushes             // walk to a box and push it one square; PushAction names it
)

// Rewards chooses the reward function.
type Rewards uint8

// The reward functions.
const (
	Paper   Rewards = iota // 001 Alg. 7: −1 no change, 0 deadlock, 100 solved, 10 closer (h1 + h2), 1 otherwise
	Boxoban                // −0.1 per step, +1 box onto a goal, −1 box off, +10 solved
)

// The rewards of 001 Alg. 7 (getReward) and of the Boxoban shaping.
const (
	RewardUnchanged = -1.0
	RewardDeadlock  = 0.0
	RewardSolved    = 100.0
	RewardCloser    = 10.0
	RewardStep      = 1.0

	BoxobanStep   = -0.1
	BoxobanOnGoal = 1.0
	BoxobanOff    = -1.0
	BoxobanSolved = 10.0
)

// Config sets up an Env. The zero Config is 001's setting over single
// moves with no step limit and no deadlock detection.
type Config struct {
	Mode      Mode
	Rewards   Rewards
	MaxSteps  int     // actions per episode; 0: no limit
	Deadlocks bool    // end an episode (reward 0 under Paper) when a push leaves a detected deadlock
	P         float64 // Minkowski exponent of h1 and h2 under Paper rewards; 0 means 001's p = 2
	Seed      uint64  // draws the level at each Reset when there are several
}

// Action is an index into the action space: a level.Dir in Moves mode, a
// PushAction in Pushes mode.
type Action int32

// PushAction is the action, in Pushes mode, that pushes the box on grid
// column x, row y in direction d: (y·width + x)·4 + d, with the width of
// the board.
func PushAction(width, x, y int, d level.Dir) Action {
	return Action((y*width+x)*4 + int(d))
}

// The observation planes, in their order in Observation.Planes.
const (
	PlaneWall = iota // 1 on walls and outside the walls
	PlaneGoal
	PlaneBox
	PlanePlayer
	NumPlanes
)

// Observation is the state as board planes: NumPlanes planes of
// Height × Width float32s, plane-major then row-major (Planes[(k·Height +
// y)·Width + x] is plane k at column x, row y), 1 where the plane's thing
// is and 0 elsewhere. The slice returned by Reset and Step belongs to the
// Env and changes with the next Reset or Step: copy it to keep it.
type Observation struct {
	Width, Height int
	Planes        []float32
}

// At returns plane k at column x, row y.
func (o Observation) At(k, x, y int) float32 { return o.Planes[(k*o.Height+y)*o.Width+x] }

// Info says what a Step did.
type Info struct {
	Changed   bool // the state changed
	Pushed    bool // a box moved
	Solved    bool // every box is on a goal
	Deadlock  bool // a detected deadlock ended the episode (Config.Deadlocks)
	Truncated bool // the step limit ended the episode
	Steps     int  // actions taken in this episode, this one included
	OnGoal    int  // boxes on goals
	Moves     int  // player moves this action made (a push walks first)
}

// errDone is the panic of a Step after the episode ended: stepping a
// finished environment is the caller's bug, as in Gym.
var errDone = errors.New("env: Step after the episode ended; call Reset")

// ErrUnsolvable is wrapped by the error of New or ResetTo for a level that
// cannot be solved from its start (sokoban.Board.Impossible says why).
var ErrUnsolvable = errors.New("unsolvable")

// board is the static part of one level, built on first use.
type board struct {
	b       *sokoban.Board
	checker *deadlock.Checker
	h       *minkowski.Heuristic // 001's h, for Paper rewards
	walls   []float32            // the wall plane, Height × Width
	goals   []float32            // the goal plane
}

// Env is a learning environment over one or more levels. It is not safe
// for concurrent use; Clone gives an independent episode on shared tables.
type Env struct {
	cfg    Config
	levels []*level.Level
	boards []*board // per level, built lazily
	rng    *rand.Rand

	cur    int // index of the current level
	bd     *board
	pos    *sokoban.Position
	steps  int
	done   bool
	moves  []level.Move
	planes []float32
}

// New returns an environment over levels with cfg. Each level must be
// solvable in principle (as many reachable boxes as goals); the first
// episode starts with Reset.
func New(cfg Config, levels ...*level.Level) (*Env, error) {
	if len(levels) == 0 {
		return nil, errors.New("env: no levels")
	}
	if cfg.Mode > Pushes || cfg.Rewards > Boxoban {
		return nil, fmt.Errorf("env: unknown mode %d or rewards %d", cfg.Mode, cfg.Rewards)
	}
	if cfg.MaxSteps < 0 {
		return nil, fmt.Errorf("env: negative step limit %d", cfg.MaxSteps)
	}
	if cfg.P == 0 {
		cfg.P = 2
	}
	if !(cfg.P >= 1) || math.IsInf(cfg.P, 0) {
		return nil, fmt.Errorf("env: Minkowski exponent %v: want a finite number of at least 1", cfg.P)
	}
	e := &Env{cfg: cfg, levels: levels, boards: make([]*board, len(levels)),
		rng: rand.New(rand.NewPCG(cfg.Seed, 0xe417))}
	if _, err := e.board(0); err != nil {
		return nil, err
	}
	return e, nil
}

// board returns the static tables of level i, building them on first use.
func (e *Env) board(i int) (*board, error) {
	if e.boards[i] != nil {
		return e.boards[i], nil
	}
	l := e.levels[i]
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, err
	}
	if b.Impossible != "" {
		return nil, fmt.Errorf("%s: %w: %s", l.Name(), ErrUnsolvable, b.Impossible)
	}
	bd := &board{b: b, h: minkowski.New(b, e.cfg.P)}
	dead := deadlock.DeadSquares(b)
	bd.checker = deadlock.NewChecker(b, dead, deadlock.Detectors{Freeze: true, WallSegment: true})
	w, h := l.Width, l.Height
	bd.walls, bd.goals = make([]float32, w*h), make([]float32, w*h)
	for y := range h {
		for x := range w {
			s := b.At(x, y)
			switch {
			case s == sokoban.None && (l.Rows[y][x] == level.BoxOnGoal):
				// A box fixed on a goal the player can never reach is a
				// wall to every agent, but its goal is still drawn.
				bd.walls[y*w+x], bd.goals[y*w+x] = 1, 1
			case s == sokoban.None:
				bd.walls[y*w+x] = 1
			case b.IsGoal(s):
				bd.goals[y*w+x] = 1
			}
		}
	}
	e.boards[i] = bd
	return bd, nil
}

// Bytes returns the memory of the tables built so far and the planes.
func (e *Env) Bytes() int64 {
	n := 4 * int64(len(e.planes))
	for _, bd := range e.boards {
		if bd != nil {
			n += bd.b.Bytes() + bd.checker.Bytes() + bd.h.Bytes() + 8*int64(len(bd.walls))
		}
	}
	return n
}

// Reset starts a new episode on a level drawn from the seed (the only level
// when there is one) and returns the first observation. On a level solved
// at its start the episode is over at once: Done reports true, History is
// empty and Step panics, so an agent looks at Done before its first Step.
func (e *Env) Reset() (Observation, error) {
	i := 0
	if len(e.levels) > 1 {
		i = e.rng.IntN(len(e.levels))
	}
	return e.ResetTo(i)
}

// ResetTo starts a new episode on level i. It fails when level i cannot be
// indexed or is unsolvable from the start.
func (e *Env) ResetTo(i int) (Observation, error) {
	if i < 0 || i >= len(e.levels) {
		return Observation{}, fmt.Errorf("env: level %d of %d", i, len(e.levels))
	}
	bd, err := e.board(i)
	if err != nil {
		return Observation{}, err
	}
	e.cur, e.bd = i, bd
	e.pos = bd.b.Start()
	e.steps, e.done, e.moves = 0, e.pos.Solved(), e.moves[:0]
	e.drawAll()
	return e.observation(), nil
}

// Clone returns an independent copy of the current episode, for looking
// ahead; its level draws continue from a copy of the generator. The copy
// shares the static tables with e: use the two from one goroutine, or call
// New once per goroutine.
func (e *Env) Clone() *Env {
	c := *e
	rng := *e.rng
	c.rng = &rng
	if e.pos != nil {
		c.pos = e.pos.Clone()
	}
	c.moves = append([]level.Move(nil), e.moves...)
	c.planes = append([]float32(nil), e.planes...)
	return &c
}

// Level returns the current episode's level.
func (e *Env) Level() *level.Level { return e.levels[e.cur] }

// Position returns the current state. Do not modify it; Clone the Env to
// explore.
func (e *Env) Position() *sokoban.Position { return e.pos }

// Key returns a hash of the state: the boxes and the player's square in
// Moves mode, the boxes and the player's reachable region in Pushes mode.
func (e *Env) Key() uint64 {
	if e.cfg.Mode == Moves {
		return e.pos.HashExact()
	}
	return e.pos.Hash()
}

// History returns the moves made since Reset; a solved episode's History is
// a solution of the level. Do not modify it.
func (e *Env) History() []level.Move { return e.moves }

// Done reports whether the episode has ended.
func (e *Env) Done() bool { return e.done }

// Steps returns the actions taken in this episode.
func (e *Env) Steps() int { return e.steps }

// Legal appends to dst the actions that would change the state (001's
// "valid actions", those whose reward is not −1) and returns it.
func (e *Env) Legal(dst []Action) []Action {
	if e.cfg.Mode == Moves {
		for d := range level.Dirs {
			if e.canMove(d) {
				dst = append(dst, Action(d))
			}
		}
		return dst
	}
	var pushes [64]sokoban.Push
	w := e.levels[e.cur].Width
	for _, m := range e.pos.Pushes(pushes[:0], nil) {
		x, y := e.bd.b.XY(m.Box)
		dst = append(dst, PushAction(w, x, y, m.Dir))
	}
	return dst
}

// canMove reports whether a step in direction d changes the state.
func (e *Env) canMove(d level.Dir) bool {
	_, _, ok := e.pos.Step(d)
	return ok
}

// push decodes a Pushes-mode action into a legal push, or false.
func (e *Env) push(a Action) (sokoban.Push, bool) {
	l := e.levels[e.cur]
	if a < 0 || int(a) >= 4*l.Width*l.Height {
		return sokoban.Push{}, false
	}
	cell, d := int(a)/4, level.Dir(a%4)
	s := e.bd.b.At(cell%l.Width, cell/l.Width)
	m := sokoban.Push{Box: s, Dir: d}
	if s < 0 || !e.pos.CanPush(m) {
		return sokoban.Push{}, false
	}
	return m, true
}

// Step takes action a and returns the observation after it, the reward, whether the
// episode has ended, and what happened. An action outside the action space
// or one that changes nothing leaves the state as it was (and still counts
// as a step). Step panics when the episode has already ended: call Reset.
func (e *Env) Step(a Action) (Observation, float64, bool, Info) {
	if e.done {
		panic(errDone)
	}
	before := e.measure()
	var info Info
	if e.cfg.Mode == Moves {
		if a >= 0 && a < 4 && e.canMove(level.Dir(a)) {
			info = e.move(level.Dir(a))
		}
	} else if m, ok := e.push(a); ok {
		info = e.walkPush(m)
	}
	return e.finish(before, info)
}

// StepMoves applies moves, which must all be legal player steps from the
// current state, as one action (a macro) and returns what Step would for a
// single action from the state before them to the state after. Moves after
// the level is solved or a deadlock ends the episode are not made. It fails,
// leaving the state as it was before the illegal step, at the first step
// that is not legal.
func (e *Env) StepMoves(moves []level.Move) (Observation, float64, bool, Info, error) {
	if e.done {
		panic(errDone)
	}
	before := e.measure()
	var info Info
	for i, mv := range moves {
		if mv.Dir > level.Right || !e.canMove(mv.Dir) {
			return e.observation(), 0, false, Info{}, fmt.Errorf("env: step %d of %d (%c) is not legal", i+1, len(moves), mv.Dir.Letter(mv.Push))
		}
		one := e.move(mv.Dir)
		info.Changed = true
		info.Pushed = info.Pushed || one.Pushed
		info.Deadlock = one.Deadlock
		info.Moves += one.Moves
		if e.pos.Solved() || one.Deadlock {
			break
		}
	}
	obs, r, done, info := e.finish(before, info)
	return obs, r, done, info, nil
}

// before is what the rewards compare: h and the boxes on goals.
type before struct {
	h      float64
	onGoal int
}

func (e *Env) measure() before {
	if e.cfg.Rewards == Paper {
		return before{h: e.H(), onGoal: e.pos.OnGoal()}
	}
	return before{onGoal: e.pos.OnGoal()}
}

// finish counts the step, computes the reward and the end of the episode.
func (e *Env) finish(b before, info Info) (Observation, float64, bool, Info) {
	e.steps++
	info.Steps = e.steps
	info.OnGoal = e.pos.OnGoal()
	info.Solved = e.pos.Solved()
	info.Truncated = !info.Solved && !info.Deadlock && e.cfg.MaxSteps > 0 && e.steps >= e.cfg.MaxSteps
	e.done = info.Solved || info.Deadlock || info.Truncated
	var r float64
	switch e.cfg.Rewards {
	case Paper:
		switch {
		case !info.Changed:
			r = RewardUnchanged
		case info.Deadlock:
			r = RewardDeadlock
		case info.Solved:
			r = RewardSolved
		case e.H() < b.h:
			r = RewardCloser
		default:
			r = RewardStep
		}
	case Boxoban:
		r = BoxobanStep + float64(info.OnGoal-b.onGoal)*BoxobanOnGoal
		if info.OnGoal < b.onGoal {
			r = BoxobanStep + float64(b.onGoal-info.OnGoal)*BoxobanOff
		}
		if info.Solved {
			r += BoxobanSolved
		}
	}
	return e.observation(), r, e.done, info
}

// move makes the legal step d, pushing a box if one stands there.
func (e *Env) move(d level.Dir) Info {
	from := e.pos.Player()
	to, push, _ := e.pos.Step(d)
	info := Info{Changed: true, Moves: 1}
	if push {
		dest := e.pos.Apply(sokoban.Push{Box: to, Dir: d})
		e.drawBox(to, dest)
		info.Pushed = true
		info.Deadlock = e.cfg.Deadlocks && e.deadlocked(dest)
	} else {
		e.pos.SetPlayer(to)
	}
	e.drawPlayer(from, to)
	e.moves = append(e.moves, level.Move{Dir: d, Push: info.Pushed})
	return info
}

// walkPush walks the player to the square behind m's box and makes push m.
func (e *Env) walkPush(m sokoban.Push) Info {
	b := e.bd.b
	walk, _ := e.pos.Walk(b.Next(m.Box, m.Dir^1)) // CanPush checked reachability
	from := e.pos.Player()
	for _, d := range walk {
		e.moves = append(e.moves, level.Move{Dir: d})
	}
	dest := e.pos.Apply(m)
	e.moves = append(e.moves, level.Move{Dir: m.Dir, Push: true})
	e.drawBox(m.Box, dest)
	e.drawPlayer(from, m.Box)
	return Info{Changed: true, Pushed: true, Moves: len(walk) + 1,
		Deadlock: e.cfg.Deadlocks && e.deadlocked(dest)}
}

// deadlocked reports whether the box just pushed onto s left a deadlock.
func (e *Env) deadlocked(s sokoban.Square) bool {
	if e.pos.Solved() {
		return false
	}
	return e.bd.checker.Dead[s] || e.bd.checker.Deadlocked(e.pos, s)
}

// H is 001's h = h1 + h2 (Eq. 6–8) of the current state with the
// configured Minkowski exponent: the distance from the player to the
// nearest box off a goal, plus the average over boxes of the summed
// distances from the box to every goal.
func (e *Env) H() float64 { return e.bd.h.Of(e.pos) }
