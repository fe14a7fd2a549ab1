package fess

import (
	"context"
	"fmt"
	"math"
	"slices"

	"soko/guide"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// guideParam switches the learned guide on and off where a model is given
// (soko solve --model FILE): the same search with and without it.
var guideParam = solver.Param{Name: "guide", Kind: solver.Bool, Default: "1",
	Doc: "with --model, the learned guide (soko train-guide) orders the nodes of equal weight and features within a cell, before the distance to the goals"}

// openGuide loads the guide of opts into the engine: its model when one is
// given and the guide is on. The portfolio calls it first on an engine of
// its own, so that a bad parameter or model file is an error even where no
// FESS strategy runs.
func (e *engine) openGuide(opts solver.Options) error {
	on, err := opts.Bool(guideParam)
	if err != nil {
		return err
	}
	if !on || opts.Model == "" {
		return nil
	}
	e.guide, err = guide.Open(opts.Model)
	return err
}

// Contexts of a move for the guide (guide.Meta names them).
const (
	ctxAtTo = iota
	ctxAtFrom
	ctxAhead
	ctxPlan
	ctxRegions
	ctxDistance
	ctxSameBox
	ctxPushes
	ctxAtToPacked
)

// guideRows appends to rows the guide's context rows, in a table of
// 2^bits rows, of move m from a node reached by last (Pushes 0 at the
// root) whose features are parent, to a child of features f; e.pos is the
// child. The squares around the box are read in the frame of its last
// push (forward, right), so that a pattern and its rotations share rows.
func (e *engine) guideRows(rows []uint32, bits uint, last, m Macro, parent, f features) []uint32 {
	p := e.pos
	fx, fy := (m.Side ^ 1).Delta() // the player is on m.Side of the box: it pushed the other way
	rx, ry := -fy, fx
	code := func(x, y int) uint64 {
		s := e.b.At(x, y)
		var c uint64
		switch {
		case s == sokoban.None:
			return 0
		case e.b.IsGoal(s):
			c = 2
		case e.gen.dead[s]:
			c = 3
		default:
			c = 1
		}
		if p.HasBox(s) {
			c += 3
		}
		return c
	}
	pattern := func(s sokoban.Square, offsets [][2]int) uint64 {
		x0, y0 := e.b.XY(s)
		var v uint64
		for _, o := range offsets {
			v = v<<3 | code(x0+o[0]*fx+o[1]*rx, y0+o[0]*fy+o[1]*ry)
		}
		return v
	}
	clip := func(v, lo, hi int) uint64 { return uint64(min(max(v, lo), hi) - lo) }
	dPacked := clip(int(f.packed-parent.packed), -2, 2)
	atTo := pattern(m.To, square3x3)
	sameBox := uint64(0)
	if last.Pushes > 0 && last.To == m.From {
		sameBox = 1
	}
	goalTo, goalFrom := uint64(0), uint64(0)
	if e.b.IsGoal(m.To) {
		goalTo = 1
	}
	if e.b.IsGoal(m.From) {
		goalFrom = 1
	}
	for i, v := range [...]uint64{
		ctxAtTo:       atTo,
		ctxAtFrom:     pattern(m.From, square3x3),
		ctxAhead:      pattern(m.To, ahead),
		ctxPlan:       dPacked | clip(int(f.oop-parent.oop), -2, 2)<<3 | clip(int(f.hot-parent.hot), -2, 2)<<6,
		ctxRegions:    clip(int(f.conn-parent.conn), -2, 2) | clip(int(f.next-parent.next), -4, 4)<<3,
		ctxDistance:   clip(int(f.dist-parent.dist), -8, 8) | goalTo<<5,
		ctxSameBox:    sameBox | dPacked<<1,
		ctxPushes:     uint64(min(m.Pushes, 8)) | goalTo<<4 | goalFrom<<5,
		ctxAtToPacked: atTo | dPacked<<27,
	} {
		rows = append(rows, guide.Row(bits, i, v))
	}
	return rows
}

// The squares a pattern reads, as (forward, right) offsets from the box:
// the 3×3 around it, and the four ahead of it in the push's direction.
var (
	square3x3 = [][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 0}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}
	ahead     = [][2]int{{2, -1}, {2, 0}, {2, 1}, {3, 0}}
)

// guideScore returns the guide's score of move m (e.pos is its child).
func (e *engine) guideScore(last, m Macro, parent, f features) float32 {
	e.guideScratch = e.guideRows(e.guideScratch[:0], e.guide.Bits, last, m, parent, f)
	return e.guide.Score(e.guideScratch)
}

// GuideExamples returns the guide's training examples from a solution of
// l, pushes: at each position of its path where it starts to move another
// box, the context rows (in a table of 2^bits rows) of every macro-move
// the plan strategy's expansion makes there, and which of them the
// solution takes. A position where the solution's move is not among them
// (PI-corral pruning left it out, or a tunnel stop) gives no example.
func GuideExamples(ctx context.Context, l *level.Level, pushes []sokoban.Push, bits uint) ([]guide.Example, error) {
	guard := solver.NewGuard(ctx, solver.Options{})
	e, st, err := newEngine(l, guard, solver.Options{}, nil, nil)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, fmt.Errorf("%s: the search cannot start (%v)", l.Name(), st)
	}
	e.use(&strategies[slices.IndexFunc(strategies, func(s strategy) bool { return s.name == "plan" })])
	p := e.pos
	parent, _ := e.feat.of(p)
	var (
		last  Macro
		out   []guide.Example
		moves []Macro
	)
	for i := 0; i < len(pushes); {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		// The solution's next macro-move: the pushes of one box in a row.
		m := Macro{From: pushes[i].Box}
		to := m.From
		for ; i < len(pushes) && pushes[i].Box == to; i++ {
			to = e.b.Next(to, pushes[i].Dir)
			m.To, m.Side, m.Pushes = to, pushes[i].Dir^1, m.Pushes+1
		}
		var st solver.Status
		var stop bool
		if moves, st, stop = e.movesOf(p, moves[:0]); stop {
			return out, fmt.Errorf("%s: stopped (%v)", l.Name(), st)
		}
		ex := guide.Example{Taken: -1}
		player := p.Player()
		e.feat.prepare(p)
		var next features
		for _, c := range moves {
			p.Relocate(c.From, c.To, e.b.Next(c.To, c.Side))
			if !e.tier.checker.Deadlocked(p, c.To) {
				f := e.feat.child(p, int(parent.conn+c.regions), c.From, c.To)
				if c.From == m.From && c.To == m.To && c.Side == m.Side {
					ex.Taken, next = len(ex.Moves), f
				}
				ex.Moves = append(ex.Moves, e.guideRows(nil, bits, last, c, parent, f))
			}
			p.Relocate(c.To, c.From, player)
		}
		if ex.Taken >= 0 && len(ex.Moves) > 1 {
			out = append(out, ex)
		}
		p.Relocate(m.From, m.To, e.b.Next(m.To, m.Side))
		if ex.Taken < 0 {
			next, _ = e.feat.of(p)
		}
		parent, last = next, m
	}
	return out, nil
}

// guideCost sets each child's cost: −log2 of its probability among the
// children under the guide, in whole bits, at most 15: a measure of how
// likely the move is that nodes of different parents share.
func (e *engine) guideCost(kids []child) {
	pr := e.guideProbs[:0]
	for _, k := range kids {
		pr = append(pr, float64(k.score))
	}
	guide.Softmax(pr)
	for i, p := range pr {
		kids[i].cost = uint8(min(15, math.Floor(-math.Log2(p))))
	}
	e.guideProbs = pr
}

// guidedOrder returns a node's order within its cell (features.order) with
// the guide's cost of the move that made it after the hotspots and before
// the distance to the goals, which keeps its low 12 bits.
func guidedOrder(order uint64, cost uint8) uint64 {
	const dist = 1<<16 - 1
	return order&^dist | uint64(cost)<<12 | min(order&dist, 1<<12-1)
}
