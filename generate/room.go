package generate

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"soko/internal/hashtab"
	"soko/level"
	"soko/sokoban"
)

// room is a grid of cells, row-major, with the goals and the player's
// start drawn on it; cells are indexed y·w + x.
type room struct {
	w, h   int
	floor  []bool
	goals  []int // the goal cells; box i starts on goals[i]
	player int
}

// patterns are the floor shapes the walk carves around each square it
// visits, as offsets: a bar across, a bar along, and three corners of a
// 2×2 block, as in Boxoban's generator.
var patterns = [][][2]int{
	{{-1, 0}, {0, 0}, {1, 0}},
	{{0, -1}, {0, 0}, {0, 1}},
	{{-1, 0}, {0, 0}, {0, 1}},
	{{-1, 0}, {0, 0}, {-1, 1}, {0, 1}},
	{{0, 0}, {1, 0}, {0, 1}},
}

// turnChance is the walk's chance of a new direction at each step.
const turnChance = 0.35

// newRoom carves a room and places goals and player, or returns nil when
// the walk carved too little floor for them. The walk follows the topology
// generator of the Imagination-Augmented Agents appendix, which made the
// Boxoban levels, as gym-sokoban's room_utils implements it: from a random
// inner square and direction, each step may turn, moves one square (kept
// inside the outer walls) and then carves a random pattern centred on the
// square reached. Its length, cfg.RoomSteps, decides how much of the frame
// the room fills.
func newRoom(cfg Config, rng *rand.Rand) *room {
	r := &room{w: cfg.Width, h: cfg.Height, floor: make([]bool, cfg.Width*cfg.Height)}
	x, y := 1+rng.IntN(r.w-2), 1+rng.IntN(r.h-2)
	d := rng.IntN(4)
	for range cfg.RoomSteps {
		if rng.Float64() < turnChance {
			d = rng.IntN(4)
		}
		dx, dy := level.Dir(d).Delta()
		x = min(max(x+dx, 1), r.w-2)
		y = min(max(y+dy, 1), r.h-2)
		for _, o := range patterns[rng.IntN(len(patterns))] {
			cx, cy := x+o[0], y+o[1]
			if cx >= 1 && cx <= r.w-2 && cy >= 1 && cy <= r.h-2 {
				r.floor[cy*r.w+cx] = true
			}
		}
	}
	var cells []int
	for c, f := range r.floor {
		if f {
			cells = append(cells, c)
		}
	}
	// Boxes, goals and the player need room to move: a third of the floor.
	if len(cells) < 3*(cfg.Boxes+1) {
		return nil
	}
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	r.goals = slices.Clone(cells[:cfg.Boxes])
	r.player = cells[cfg.Boxes]
	return r
}

// reverse is the reverse-play search of one room: a depth-first search
// over the positions reachable from the solved one by steps and pulls, as
// gym-sokoban's reading of Boxoban's generator does it (its
// depth_first_search, there up to 300,000 positions, here Config.Explore):
// every position met is scored, the first time it is met, by the path that
// reached it, and the best one is kept with that path. The moves follow
// sokoban's rules: a pull is a push taken back (Position.Undo), and a
// position is known by its Zobrist hash (Position.HashExact). A collision
// can only make the search skip a position: the path kept is always one
// that was played.
type reverse struct {
	r        *room
	b        *sokoban.Board
	p        *sokoban.Position // box i keeps its index; its goal is goal[i]
	goal     []sokoban.Square
	rng      *rand.Rand
	path     []level.Move // the reverse steps so far: Dir the player stepped, Push meaning a pull
	seen     *hashtab.Set // the positions met, by hash
	explore  int          // positions the search may still visit
	maxDepth int

	best      int // best score met
	bestBoxes []int
	bestMoves []level.Move
	bestPlay  int
}

// reversePlay searches cfg.Explore positions at most, cfg.Depth steps deep
// at most, and returns the best position met (its box and player cells)
// and the moves that reach it from the solved one; score 0 when no
// position had every box off every goal.
func (r *room) reversePlay(cfg Config, rng *rand.Rand) (score int, boxes []int, player int, moves []level.Move, err error) {
	l, err := r.parse(r.goals, r.player, "room")
	if err != nil {
		return 0, nil, 0, nil, err
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return 0, nil, 0, nil, fmt.Errorf("generate: room: %w", err)
	}
	p := b.Start()
	s := &reverse{r: r, b: b, p: p, goal: slices.Clone(p.BoxSquares()), rng: rng,
		seen: hashtab.New[struct{}](1 << 12), explore: cfg.Explore, maxDepth: cfg.Depth}
	s.search(-1, 0)
	return s.best, s.bestBoxes, s.bestPlay, s.bestMoves, nil
}

// search visits the current position, reached with swaps changes of the
// pulled box, the last one pulled being last (-1: none yet), and searches
// on from it.
func (s *reverse) search(last, swaps int) {
	if s.explore <= 0 || len(s.path) >= s.maxDepth {
		return
	}
	p := s.p
	if !s.seen.Add(p.HashExact()) {
		return
	}
	s.explore--
	if v := s.value(swaps); v > s.best {
		s.best = v
		s.bestBoxes = s.bestBoxes[:0]
		for _, b := range p.BoxSquares() {
			s.bestBoxes = append(s.bestBoxes, s.cell(b))
		}
		s.bestMoves = slices.Clone(s.path)
		s.bestPlay = s.cell(p.Player())
	}
	// Boxoban's search tries its eight actions in a fixed order; a random
	// first direction per position spreads the search over the room.
	first := s.rng.IntN(8)
	for k := range 8 {
		a := (first + k) % 8
		d, pull := level.Dir(a%4), a >= 4
		from := p.Player()
		to, push, ok := p.Step(d)
		if !ok || push {
			continue
		}
		// A pull takes back the push, from the player's square towards
		// the box behind him, that would have left him where he is.
		m := sokoban.Push{Box: from, Dir: d ^ 1}
		b := -1
		if pull {
			behind := s.b.Next(from, d^1)
			if behind < 0 || !p.HasBox(behind) {
				continue // nothing to pull: the plain step covers it
			}
			b = slices.Index(p.BoxSquares(), behind)
			p.Undo(m)
		} else {
			p.SetPlayer(to)
		}
		nlast, nswaps := last, swaps
		if b >= 0 && b != last {
			nlast, nswaps = b, swaps+1
		}
		s.path = append(s.path, level.Move{Dir: d, Push: b >= 0})
		s.search(nlast, nswaps)
		s.path = s.path[:len(s.path)-1]
		if b >= 0 {
			p.Apply(m)
		} else {
			p.SetPlayer(from)
		}
	}
}

// cell returns the room cell of square q.
func (s *reverse) cell(q sokoban.Square) int {
	x, y := s.b.XY(q)
	return y*s.r.w + x
}

// value is Boxoban's score of the current position: box changes times the
// total Manhattan distance of the boxes from their own goals, and 0 while
// any box stands on a goal.
func (s *reverse) value(swaps int) int {
	if s.p.OnGoal() > 0 {
		return 0
	}
	dist := 0
	for i, q := range s.p.BoxSquares() {
		x, y := s.b.XY(q)
		gx, gy := s.b.XY(s.goal[i])
		dist += abs(x-gx) + abs(y-gy)
	}
	return swaps * dist
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// forward turns reverse play into the forward solution: the steps in
// reverse order, each in the opposite direction, pulls becoming pushes.
func forward(moves []level.Move) []level.Move {
	out := make([]level.Move, len(moves))
	for i, m := range moves {
		out[len(moves)-1-i] = level.Move{Dir: m.Dir ^ 1, Push: m.Push}
	}
	return out
}

// level draws the position with the given boxes and player as a validated
// level.
func (r *room) level(boxes []int, player int, cfg Config, i int) (*level.Level, error) {
	source := fmt.Sprintf("generated %dx%d b%d seed %d", cfg.Width, cfg.Height, cfg.Boxes, cfg.Seed)
	l, err := r.parse(boxes, player, source)
	if err != nil {
		return nil, fmt.Errorf("generate: level %d: %w", i, err)
	}
	l.Index = i
	l.Title = fmt.Sprintf("seed %d #%d", cfg.Seed, i)
	return l, nil
}

// parse draws the position with the given boxes and player and reads it
// back as a validated level from source.
func (r *room) parse(boxes []int, player int, source string) (*level.Level, error) {
	rows := make([][]byte, r.h)
	for y := range rows {
		rows[y] = make([]byte, r.w)
		for x := range rows[y] {
			rows[y][x] = level.Wall
			if r.floor[y*r.w+x] {
				rows[y][x] = level.Floor
			}
		}
	}
	put := func(c int, plain, onGoal byte) {
		x, y := c%r.w, c/r.w
		if rows[y][x] == level.Goal {
			rows[y][x] = onGoal
		} else {
			rows[y][x] = plain
		}
	}
	for _, g := range r.goals {
		rows[g/r.w][g%r.w] = level.Goal
	}
	for _, b := range boxes {
		put(b, level.Box, level.BoxOnGoal)
	}
	put(player, level.Player, level.PlayerOnGoal)
	var text []byte
	for _, row := range rows {
		text = append(append(text, row...), '\n')
	}
	ls, err := level.ParseString(string(text), source)
	if err != nil {
		return nil, err
	}
	return ls[0], nil
}
