package generate

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"soko/level"
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

var deltas = [4][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} // in level.Dir order

// newRoom carves a room and places goals and player, or returns nil when
// the walk carved too little floor for them.
func newRoom(cfg Config, rng *rand.Rand) *room {
	r := &room{w: cfg.Width, h: cfg.Height, floor: make([]bool, cfg.Width*cfg.Height)}
	inner := (r.w - 2) * (r.h - 2)
	steps := max(25*inner/64, 4) // Boxoban walks 25 steps in its 8×8 interior
	x, y := 1+rng.IntN(r.w-2), 1+rng.IntN(r.h-2)
	d := rng.IntN(4)
	for range steps {
		for _, o := range patterns[rng.IntN(len(patterns))] {
			cx, cy := x+o[0], y+o[1]
			if cx >= 1 && cx <= r.w-2 && cy >= 1 && cy <= r.h-2 {
				r.floor[cy*r.w+cx] = true
			}
		}
		if rng.Float64() < turnChance {
			d = rng.IntN(4)
		}
		x = min(max(x+deltas[d][0], 1), r.w-2)
		y = min(max(y+deltas[d][1], 1), r.h-2)
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

// walk is one reverse-play walk: the moves made (each a player step, a pull
// when Pull is set) and the state after each.
type walk struct {
	r      *room
	boxes  []int // box i's cell
	player int
	moves  []level.Move // reverse steps: Dir the player stepped, Push meaning a pull
	last   int          // the box pulled last, -1 at first
	swaps  int          // times the pulled box changed
	score  int
}

// reversePlay runs cfg.Walks walks and returns the best position met: the
// walk cut at its best-scoring step.
func (r *room) reversePlay(cfg Config, rng *rand.Rand) walk {
	var best walk
	for range cfg.Walks {
		w := walk{r: r, boxes: slices.Clone(r.goals), player: r.player, last: -1}
		for range cfg.WalkSteps {
			w.step(rng)
			if s := w.value(); s > best.score {
				best = w
				best.boxes = slices.Clone(w.boxes)
				best.moves = slices.Clone(w.moves)
				best.score = s
			}
		}
	}
	return best
}

// step moves the player one square in a random open direction, pulling the
// box behind it with probability one half.
func (w *walk) step(rng *rand.Rand) {
	r := w.r
	d := level.Dir(rng.IntN(4))
	px, py := w.player%r.w, w.player/r.w
	to := (py+deltas[d][1])*r.w + px + deltas[d][0]
	if !r.floor[to] || w.boxAt(to) >= 0 {
		return
	}
	behind := (py-deltas[d][1])*r.w + px - deltas[d][0]
	pull := false
	if b := w.boxAt(behind); b >= 0 && rng.IntN(2) == 0 {
		w.boxes[b] = w.player
		if b != w.last {
			w.swaps++
			w.last = b
		}
		pull = true
	}
	w.player = to
	w.moves = append(w.moves, level.Move{Dir: d, Push: pull})
}

func (w *walk) boxAt(c int) int {
	return slices.Index(w.boxes, c)
}

// value is Boxoban's score of the current position: box changes times the
// total Manhattan distance of the boxes from their own goals, and 0 while
// any box stands on a goal.
func (w *walk) value() int {
	dist := 0
	for i, c := range w.boxes {
		if slices.Contains(w.r.goals, c) {
			return 0
		}
		g := w.r.goals[i]
		dist += abs(c%w.r.w-g%w.r.w) + abs(c/w.r.w-g/w.r.w)
	}
	return w.swaps * dist
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// solution turns the reverse walk into the forward solution: the steps in
// reverse order, each in the opposite direction, pulls becoming pushes.
func (w walk) solution() []level.Move {
	out := make([]level.Move, len(w.moves))
	for i, m := range w.moves {
		out[len(w.moves)-1-i] = level.Move{Dir: m.Dir ^ 1, Push: m.Push}
	}
	return out
}

// level draws the walk's position as a validated level.
func (r *room) level(w walk, cfg Config, i int) (*level.Level, error) {
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
	for _, b := range w.boxes {
		put(b, level.Box, level.BoxOnGoal)
	}
	put(w.player, level.Player, level.PlayerOnGoal)
	var text []byte
	for _, row := range rows {
		text = append(append(text, row...), '\n')
	}
	source := fmt.Sprintf("generated %dx%d b%d seed %d", cfg.Width, cfg.Height, cfg.Boxes, cfg.Seed)
	ls, err := level.ParseString(string(text), source)
	if err != nil {
		return nil, fmt.Errorf("generate: level %d: %w", i, err)
	}
	l := ls[0]
	l.Index = i
	l.Title = fmt.Sprintf("seed %d #%d", cfg.Seed, i)
	return l, nil
}
