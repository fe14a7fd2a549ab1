package lts

import (
	"context"
	"slices"

	"soko/deadlock"
	"soko/sokoban"
)

// The code of a grid cell in a context: what stands there for good, plus
// cellBox when a box stands on it. Outside the grid counts as wall.
const (
	cellFloor = iota
	cellGoal
	cellDead // floor a box can never leave for a goal
	cellWall
	cellBox  = 4 // added to floor, goal or dead
	cellBits = 3
)

// tile is a rectangle of cells at an offset from the player.
type tile struct{ dx, dy, w, h int8 }

// tiles are the patterns a position's contexts are made of, each with its
// own offset so that the same pattern in another place is another context:
// 3×3 tiles covering the 9×9 window around the player, 2×2 tiles over the
// 4×4 window and the 1×2 and 2×1 tiles around the player. With the last
// move and the moves' outcomes, NumContexts contexts a position.
var tiles = func() []tile {
	var ts []tile
	add := func(w, h, lo, hiX, hiY int) {
		for dy := lo; dy <= hiY; dy++ {
			for dx := lo; dx <= hiX; dx++ {
				ts = append(ts, tile{int8(dx), int8(dy), int8(w), int8(h)})
			}
		}
	}
	add(3, 3, -4, 2, 2)
	add(2, 2, -2, 1, 1)
	add(2, 1, -1, 0, 1)
	add(1, 2, -1, 1, 0)
	return ts
}()

// NumContexts is the number of contexts of a position: its tiles, the last
// move, and the moves' outcomes alone, with the last move and with the
// 3×3 tile around the player.
var NumContexts = len(tiles) + 4

// The outcome of a move, a context of its own (Board.outcomes).
const (
	outBlocked  = iota // a wall, or a box that cannot move
	outCloser          // a step nearer a box off its goal
	outFarther         // a step no nearer
	outOntoGoal        // a push onto a goal
	outNearer          // a push to a square nearer a goal
	outOffGoal         // a push off a goal
	outAway            // any other push
	outcomes
)

// noMove is the last move of the start position.
const noMove = 2 * Actions

// Board holds the static cell codes of one level's grid, from which the
// contexts of its positions are read, and the tables that keep a move.
type Board struct {
	b      *sokoban.Board
	w, h   int
	static []uint8          // per grid cell, row-major
	at     []sokoban.Square // per grid cell: its square, or None
	dead   []bool           // per square
	near   []int32          // per square: a lone box's pushes to its nearest goal
	check  *deadlock.Checker
	dist   []int32          // scratch: the player's steps to a square beside a box off its goal
	fifo   []sokoban.Square // scratch of the search that fills dist
}

// NewBoard builds b's tables; Legal leaves out the pushes the detectors
// switched on in prune prove dead (the table of dead sets, when on, built
// under deadlock.DefaultTableLimits).
func NewBoard(b *sokoban.Board, prune deadlock.Detectors) *Board {
	bd, _ := newBoard(context.Background(), b, prune, deadlock.DefaultTableLimits) // fails only when its context ends
	return bd
}

// newBoard is NewBoard building the table, when on, under ctx and limits;
// it returns ctx's error when ctx ends first.
func newBoard(ctx context.Context, b *sokoban.Board, prune deadlock.Detectors, limits deadlock.TableLimits) (*Board, error) {
	l := b.Level
	bd := &Board{b: b, w: l.Width, h: l.Height, static: make([]uint8, l.Width*l.Height), at: make([]sokoban.Square, l.Width*l.Height)}
	bd.dead = deadlock.DeadSquares(b)
	bd.near = b.NearestGoal()
	bd.dist = make([]int32, b.N)
	bd.fifo = make([]sokoban.Square, 0, b.N)
	var err error
	if bd.check, err = deadlock.NewCheckerWith(ctx, b, bd.dead, prune, limits); err != nil {
		return nil, err
	}
	for y := range l.Height {
		for x := range l.Width {
			i := y*l.Width + x
			s := b.At(x, y)
			bd.at[i] = s
			switch {
			case s == sokoban.None:
				bd.static[i] = cellWall
			case b.IsGoal(s):
				bd.static[i] = cellGoal
			case bd.dead[s]:
				bd.static[i] = cellDead
			default:
				bd.static[i] = cellFloor
			}
		}
	}
	return bd, nil
}

// Bytes is the memory of the board's tables.
func (bd *Board) Bytes() int64 {
	return int64(len(bd.static))*5 + int64(len(bd.dead))*13 + bd.check.Bytes()
}

// cell returns the code of grid cell (x, y) in position p.
func (bd *Board) cell(p *sokoban.Position, x, y int) uint64 {
	if x < 0 || y < 0 || x >= bd.w || y >= bd.h {
		return cellWall
	}
	i := y*bd.w + x
	c := uint64(bd.static[i])
	if s := bd.at[i]; s != sokoban.None && p.HasBox(s) {
		c += cellBox
	}
	return c
}

// Contexts appends to dst the rows of m's table (of 1<<bits rows) that
// position p, reached by move last (a direction, plus Actions when it
// pushed; noMove at the start), selects.
func (bd *Board) Contexts(p *sokoban.Position, last int, bits uint, dst []uint32) []uint32 {
	px, py := bd.b.XY(p.Player())
	out := bd.outcomes(p)
	dst = append(dst, row(uint64(last)<<8|0xff, bits), row(out<<16|0xfe, bits), row((out<<8|uint64(last))<<16|0xfd, bits))
	for k, t := range tiles {
		v := uint64(k + 1)
		for y := range int(t.h) {
			for x := range int(t.w) {
				v = v<<cellBits | bd.cell(p, px+int(t.dx)+x, py+int(t.dy)+y)
			}
		}
		dst = append(dst, row(v, bits))
		if k == centre {
			dst = append(dst, row((out<<32|v)<<8|0xfc, bits))
		}
	}
	return dst
}

// centre is the index in tiles of the 3×3 tile centred on the player.
var centre = slices.Index(tiles, tile{-1, -1, 3, 3})

// outcomes returns what each of p's four moves does (outBlocked …), as a
// number in base outcomes: which moves walk towards work, which push a box
// nearer a goal or onto one. It is the one context that sees beyond the
// player's window: the steps to the nearest square beside a box off its
// goal, by a breadth-first search over free squares, and each square's
// pushes to its nearest goal.
func (bd *Board) outcomes(p *sokoban.Position) uint64 {
	b := bd.b
	for i := range bd.dist {
		bd.dist[i] = -1
	}
	q := bd.fifo[:0]
	for _, s := range p.BoxSquares() {
		if b.IsGoal(s) {
			continue
		}
		for _, n := range b.Neighbours(s) {
			if n != sokoban.None && !p.HasBox(n) && bd.dist[n] < 0 {
				bd.dist[n] = 0
				q = append(q, n)
			}
		}
	}
	for i := 0; i < len(q); i++ {
		for _, n := range b.Neighbours(q[i]) {
			if n != sokoban.None && !p.HasBox(n) && bd.dist[n] < 0 {
				bd.dist[n] = bd.dist[q[i]] + 1
				q = append(q, n)
			}
		}
	}
	bd.fifo = q
	here := bd.dist[p.Player()]
	var out uint64
	for d := range sokoban.Dirs {
		to, push, ok := p.Step(d)
		o := uint64(outBlocked)
		switch {
		case !ok:
		case !push && bd.dist[to] >= 0 && (here < 0 || bd.dist[to] < here):
			o = outCloser
		case !push:
			o = outFarther
		default:
			next := b.Next(to, d)
			switch {
			case b.IsGoal(next) && !b.IsGoal(to):
				o = outOntoGoal
			case bd.near[next] < bd.near[to]:
				o = outNearer
			case b.IsGoal(to):
				o = outOffGoal
			default:
				o = outAway
			}
		}
		out = out*outcomes + o
	}
	return out
}

// row hashes a context's value to a row of a table of 1<<bits rows
// (SplitMix64's finaliser, Steele, Lea and Flood 2014).
func row(v uint64, bits uint) uint32 {
	v ^= v >> 30
	v *= 0xbf58476d1ce4e5b9
	v ^= v >> 27
	v *= 0x94d049bb133111eb
	v ^= v >> 31
	return uint32(v >> (64 - bits))
}

// Legal returns the moves of p the search makes, as bits by direction: a
// step onto free floor, or a push whose box lands off the dead squares
// into a position none of the board's detectors proves dead.
func (bd *Board) Legal(p *sokoban.Position) uint8 {
	var legal uint8
	for d := range sokoban.Dirs {
		to, push, ok := p.Step(d)
		if !ok {
			continue
		}
		if push {
			next := bd.b.Next(to, d)
			if bd.dead[next] {
				continue
			}
			m := sokoban.Push{Box: to, Dir: d}
			from := p.Player()
			dead := bd.check.Deadlocked(p, p.Apply(m))
			p.Undo(m)
			p.SetPlayer(from)
			if dead {
				continue
			}
		}
		legal |= 1 << d
	}
	return legal
}

// play makes move d in p, which Legal allows, and returns the last-move
// code of the position it reaches.
func (bd *Board) play(p *sokoban.Position, d sokoban.Dir) int {
	to, push, _ := p.Step(d)
	if push {
		p.Apply(sokoban.Push{Box: to, Dir: d})
		return int(d) + Actions
	}
	p.SetPlayer(to)
	return int(d)
}
