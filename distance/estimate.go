package distance

import (
	"context"
	"fmt"

	"soko/internal/grid"
	"soko/sokoban"
)

// Estimator estimates the pushes from positions of one board to its
// solution: the model's, or with no model the bound alone. Positions are
// queued with Add and estimated a batch at a time by Flush, so that the
// children of a node go through the network together. Once its context
// ends, the network stops within a layer and every estimate left is the
// bound: the search then stops at its next look at the clock.
type Estimator struct {
	ctx     context.Context
	model   *Model // nil: the bound alone
	bd      *Board
	batch   int
	pos     *sokoban.Position // decodes the queued positions
	keys    []byte
	bounds  []int // -1: infeasible
	in, out []float64
	stopped bool

	// Evaluated counts the positions the network was run on.
	Evaluated int64
}

// NewEstimator returns an estimator for board b with model m (nil: the
// bound alone). Its tables are built under setUp, which may end the
// building with its error; the network stops when ctx ends.
func NewEstimator(ctx, setUp context.Context, m *Model, b *sokoban.Board) (*Estimator, error) {
	bd, err := NewBoard(setUp, b)
	if err != nil {
		return nil, err
	}
	return &Estimator{ctx: ctx, model: m, bd: bd, batch: batchOf(b), pos: b.Start()}, nil
}

// batchOf is the boards of one network batch on board b.
func batchOf(b *sokoban.Board) int { return max(1, grid.MaxSquares/(b.Width*b.Level.Height)) }

// EstimatorBytes returns the memory an estimator for board b with model m
// (nil: none) holds: the bound's table of pull distances, the squares'
// tables, and the network's working memory and planes for a batch.
func EstimatorBytes(m *Model, b *sokoban.Board) int64 {
	n := int64(b.N)
	bytes := 4*n*int64(len(b.Goals())) + 8*n + b.PullBytes()
	if m != nil {
		hw := b.Width * b.Level.Height
		batch := batchOf(b)
		bytes += m.Net.Config.Bytes(batch, hw, false) + 8*int64(planes*hw*batch)
	}
	return bytes
}

// Add queues position p.
func (e *Estimator) Add(p *sokoban.Position) {
	h, ok := e.bd.Bound(p)
	if !ok {
		h = -1
	}
	e.bounds = append(e.bounds, h)
	e.keys = p.PackExact(e.keys)
}

// Flush appends the estimates of the queued positions to dst, in the
// order they were added, and empties the queue. A dead position (its bound
// infeasible) is estimated Unsolvable, or DeadGap behind the farthest live
// position queued with it where that is farther: a start 60 pushes or more
// from the goals is live, and its children must not look worse than their
// dead siblings.
func (e *Estimator) Flush(dst []float64) []float64 {
	start := len(dst)
	size := e.bd.b.KeySize()
	b := e.bd.b
	for at := 0; at < len(e.bounds); {
		// One batch: up to e.batch positions with a feasible bound.
		e.in = e.in[:0]
		n, end := 0, at
		for ; end < len(e.bounds) && n < e.batch; end++ {
			if e.bounds[end] < 0 || e.model == nil || e.stopped {
				continue
			}
			e.pos.Unpack(e.keys[end*size:][:size])
			e.in = e.bd.Encode(e.in, e.pos, e.bounds[end])
			n++
		}
		if n > 0 {
			var err error
			e.out, err = e.model.Net.Values(e.ctx, e.in, n, b.Level.Height, b.Width, e.out)
			if err != nil && e.ctx.Err() == nil {
				panic(fmt.Sprintf("distance: a batch the estimator built is malformed: %v", err))
			}
			e.stopped = err != nil
			e.Evaluated += int64(n)
		}
		k := 0
		for i := at; i < end; i++ {
			h := e.bounds[i]
			switch {
			case h < 0:
				dst = append(dst, Unsolvable)
			case e.model == nil || e.stopped:
				dst = append(dst, float64(h))
			default:
				dst = append(dst, float64(h)+Gap(e.out[k]))
				k++
			}
		}
		at = end
	}
	far := 0.0 // the farthest live estimate
	for i, h := range e.bounds {
		if h >= 0 {
			far = max(far, dst[start+i])
		}
	}
	if far+DeadGap > Unsolvable {
		for i, h := range e.bounds {
			if h < 0 {
				dst[start+i] = far + DeadGap
			}
		}
	}
	e.keys, e.bounds = e.keys[:0], e.bounds[:0]
	return dst
}

// One returns the estimate of position p alone, and false when p is
// proved dead: its bound is infeasible (a box can reach no goal). Only
// that proves it; an estimate of Unsolvable or more with a feasible bound
// is a live position far from the goals (the bound has no cap; a model
// adds at most Unsolvable to it).
func (e *Estimator) One(p *sokoban.Position) (float64, bool) {
	e.Add(p)
	live := e.bounds[len(e.bounds)-1] >= 0
	var v [1]float64
	return e.Flush(v[:0])[0], live
}
