// Package sokoban is the fast core every solver shares: the indexed board,
// positions with incremental Zobrist hashing (Zobrist 1970), push
// generation from one player-reachability flood fill, apply/undo of pushes,
// packed states and a hash-indexed state store, pull distances for lower
// bounds and dead squares, and the expansion of a push sequence into a full
// LURD solution. Works cited by author and year are listed in the README's
// References.
//
// It also holds the primitives the other packages build on instead of
// writing them again: the directions (Dirs), a set of squares cleared in
// constant time (Marks), a flood fill (Board.Fill), the one
// articulation-point search (Cuts), the Zobrist key tables (NewZobrist)
// and the rules of a player step, a push and a pull (Position.Step, Apply,
// Undo), which play and generate use too.
//
// Square numbering: only floor squares the player can ever reach are
// indexed, 0..N-1 in row-major order of the level grid. Walls, and squares
// outside the walls, have no index; a neighbour that is not an indexed square
// is None. Hot loops therefore never look at walls:
//
//	level grid          squares
//	#####               . . . . .
//	#@ $#               . 0 1 2 .
//	# ..#               . 3 4 5 .
//	#####               . . . . .
//
// Boxes already on goals in regions the player can never reach can never
// move; they are turned into walls and counted in Board.Fixed. A box that can
// never be reached off a goal, or a goal no box can ever reach, makes the
// level unsolvable; Board.Impossible says why and solvers report no solution.
package sokoban

import (
	"fmt"
	"sync"

	"soko/internal/english"
	"soko/level"
)

// Square is an index into a Board's reachable floor, 0..N-1, or None.
type Square = int32

// None marks a missing neighbour (a wall or the outside).
const None Square = -1

// Dir is one of the four directions, in the order of level.Dir: Up, Down,
// Left, Right. The opposite of d is d^1.
type Dir = level.Dir

// Dirs is the number of directions: for d := range Dirs visits each Dir.
const Dirs = level.Dirs

// Zobrist keys come from this fixed seed, so hashes and search orders are
// reproducible from run to run.
const zobristSeed = 0x50c0ba11

// Board holds the static tables of one level.
type Board struct {
	Level      *level.Level
	Width      int // grid width, as in the level
	N          int // number of indexed squares
	Fixed      int // boxes on goals the player can never reach, turned into walls
	Impossible string

	cell   []int32     // square -> grid cell (y*Width+x)
	square []int32     // grid cell -> square or None
	next   [][4]Square // next[s][d]: neighbour of s in direction d, or None
	goal   []bool
	goals  []Square

	startBoxes  []Square
	startPlayer Square

	zBox    []uint64
	zPlayer []uint64

	linksOnce sync.Once
	links     []int8 // sideLinks, computed on first use
}

// NewBoard indexes a validated level.
func NewBoard(l *level.Level) (*Board, error) {
	w, h := l.Width, l.Height
	if w <= 0 || h <= 0 || len(l.Rows) != h {
		return nil, fmt.Errorf("%s: malformed level grid", l.Name())
	}
	b := &Board{Level: l, Width: w, square: make([]int32, w*h)}
	for i := range b.square {
		b.square[i] = None
	}
	// Flood fill from the player over non-wall cells, ignoring boxes: these
	// are the squares the player may ever stand on or push a box onto.
	px, py := -1, -1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if c := l.Rows[y][x]; c == level.Player || c == level.PlayerOnGoal {
				px, py = x, y
			}
		}
	}
	if px < 0 {
		return nil, fmt.Errorf("%s: no player", l.Name())
	}
	reach := make([]bool, w*h)
	stack := []int{py*w + px}
	reach[py*w+px] = true
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := c%w, c/w
		for _, n := range [4][2]int{{x, y - 1}, {x, y + 1}, {x - 1, y}, {x + 1, y}} {
			if n[0] < 0 || n[0] >= w || n[1] < 0 || n[1] >= h {
				return nil, fmt.Errorf("%s: open level: the player can walk off the board at row %d, column %d", l.Name(), y+1, x+1)
			}
			nc := n[1]*w + n[0]
			if !reach[nc] && l.Rows[n[1]][n[0]] != level.Wall {
				reach[nc] = true
				stack = append(stack, nc)
			}
		}
	}
	for c, ok := range reach {
		if ok {
			b.square[c] = int32(len(b.cell))
			b.cell = append(b.cell, int32(c))
		}
	}
	b.N = len(b.cell)
	b.next = make([][4]Square, b.N)
	b.goal = make([]bool, b.N)
	for s, c := range b.cell {
		x, y := int(c)%w, int(c)/w
		for d := range Dirs {
			dx, dy := d.Delta()
			nx, ny := x+dx, y+dy
			b.next[s][d] = None
			if nx >= 0 && nx < w && ny >= 0 && ny < h {
				b.next[s][d] = b.square[ny*w+nx]
			}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := l.Rows[y][x]
			s := b.square[y*w+x]
			isBox := c == level.Box || c == level.BoxOnGoal
			isGoal := c == level.Goal || c == level.BoxOnGoal || c == level.PlayerOnGoal
			switch {
			case s == None && isBox && isGoal:
				b.Fixed++
			case s == None && isBox:
				b.impossible("box at row %d, column %d can never be reached", y+1, x+1)
			case s == None && isGoal:
				b.impossible("goal at row %d, column %d can never be reached", y+1, x+1)
			case s != None:
				if isGoal {
					b.goal[s] = true
					b.goals = append(b.goals, s)
				}
				if isBox {
					b.startBoxes = append(b.startBoxes, s)
				}
			}
		}
	}
	b.startPlayer = b.square[py*w+px]
	if len(b.startBoxes) != len(b.goals) && b.Impossible == "" {
		b.impossible("%s but %s", english.Count(len(b.startBoxes), "reachable box", "reachable boxes"), english.Count(len(b.goals), "reachable goal", "reachable goals"))
	}
	z := NewZobrist(b.N, zobristSeed, uint64(b.N))
	b.zBox, b.zPlayer = z.Box, z.Player
	return b, nil
}

func (b *Board) impossible(format string, args ...any) {
	if b.Impossible == "" {
		b.Impossible = fmt.Sprintf(format, args...)
	}
}

// Bytes returns the memory the board's tables take, side links included
// (Splits; PullDistances), not the table PullDistances returns.
func (b *Board) Bytes() int64 {
	n := int64(b.N)
	return 4*int64(len(b.square)) + (4+16+1+8+8+4)*n + 4*int64(len(b.goals)+len(b.startBoxes))
}

// Next returns the neighbour of s in direction d, or None.
func (b *Board) Next(s Square, d Dir) Square { return b.next[s][d] }

// Neighbours returns the neighbours of s in the order of Dirs, None where
// there is none: one look for a loop over all four.
func (b *Board) Neighbours(s Square) [4]Square { return b.next[s] }

// IsGoal reports whether s is a goal.
func (b *Board) IsGoal(s Square) bool { return b.goal[s] }

// Goals returns the goal squares in increasing order. Do not modify.
func (b *Board) Goals() []Square { return b.goals }

// Boxes returns the number of movable boxes.
func (b *Board) Boxes() int { return len(b.startBoxes) }

// XY returns the grid column and row of s.
func (b *Board) XY(s Square) (x, y int) {
	c := int(b.cell[s])
	return c % b.Width, c / b.Width
}

// At returns the square at grid column x, row y, or None.
func (b *Board) At(x, y int) Square {
	if x < 0 || x >= b.Width || y < 0 || y >= b.Level.Height {
		return None
	}
	return b.square[y*b.Width+x]
}

// Start returns a new Position at the level's initial state.
func (b *Board) Start() *Position {
	return b.PositionOf(b.startBoxes, b.startPlayer)
}

// PositionOf returns a new Position with boxes on the given squares (as many
// as the level has, on distinct floor squares) and the player on player.
func (b *Board) PositionOf(boxes []Square, player Square) *Position {
	p := newPosition(b)
	p.set(boxes, player)
	return p
}
