package distance

import (
	"context"
	"fmt"

	"soko/sokoban"
)

// maxSquares bounds the board squares of one network batch: 64 boards of
// 10×10, one board of any size.
const maxSquares = 8192

// Estimator estimates the pushes from positions of one board to its
// solution: the model's, or with no model the bound alone. Positions are
// queued with Add and estimated a batch at a time by Flush, so that the
// children of a node go through the network together. Once its context
// ends, the network stops within a layer and every estimate left is the
// bound: the search then stops at its next look at the clock.
type Estimator struct {
	ctx     context.Context
	model   *Model // nil: the bound alone
	bd      *board
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
// bound alone) that stops the network when ctx ends.
func NewEstimator(ctx context.Context, m *Model, b *sokoban.Board) (*Estimator, error) {
	bd, err := newBoard(ctx, b)
	if err != nil {
		return nil, err
	}
	return &Estimator{ctx: ctx, model: m, bd: bd, batch: max(1, maxSquares/(b.Width*b.Level.Height)), pos: b.Start()}, nil
}

// Bytes returns the memory the estimator's tables and a batch take.
func (e *Estimator) Bytes() int64 {
	n := int64(e.bd.b.N)
	bytes := 4*n*int64(len(e.bd.b.Goals())) + 8*n + e.bd.bound.Bytes()
	if e.model != nil {
		hw := e.bd.b.Width * e.bd.b.Level.Height
		bytes += e.model.Net.Config.Bytes(e.batch, hw, false) + 8*int64(planes*hw*e.batch)
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
// order they were added, and empties the queue.
func (e *Estimator) Flush(dst []float64) []float64 {
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
			e.in = e.bd.encode(e.in, e.pos, e.bounds[end])
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
				dst = append(dst, float64(h)+gap(e.out[k]))
				k++
			}
		}
		at = end
	}
	e.keys, e.bounds = e.keys[:0], e.bounds[:0]
	return dst
}

// One returns the estimate of position p alone.
func (e *Estimator) One(p *sokoban.Position) float64 {
	e.Add(p)
	var v [1]float64
	return e.Flush(v[:0])[0]
}
