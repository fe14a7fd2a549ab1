package alphazero

import (
	"context"
	"slices"

	"soko/internal/grid"
	"soko/mcts"
	"soko/sokoban"
)

// sample is one training example in compact form: the state's packed key on
// its level's board, the target heuristic value and the steps to reach it
// (003 §2.5), and on the sample whose target is the state's own value, the
// visit distribution over the pushes of its children.
type sample struct {
	board  int    // index of the level in the training set
	key    []byte // packed state (sokoban.Position.Pack)
	target float64
	steps  float64
	legal  []int32
	policy []float64
}

// harvest returns the training samples of search v's tree on board b (the
// training set's board index bi), following 003 §2.5, Fig. 6: for every
// node s and every node d of s's subtree, s included, with h(d) ≤ h(s),
// the sample (s, h(d)) → depth(d) − depth(s), keeping for each (s, h) the
// fewest steps. Nodes are visited depth first in child order, so the
// samples come in a deterministic order. Only the last keep samples are
// returned (keep ≤ 0: all), the ones a buffer of keep samples would keep,
// with the count of those dropped before them, so that a big tree's
// harvest holds at most twice that many at a time. It stops with ctx's
// error when ctx ends: a tree of 50,000 nodes takes seconds.
func harvest(ctx context.Context, v *mcts.ValueSearch, b *sokoban.Board, bi, keep int) ([]sample, int, error) {
	t := v.Tree
	type frame struct {
		x     int32
		depth int
		h     float64
		best  map[float64]int // target h -> fewest steps found in the subtree
		order []float64       // the targets in the order first met
	}
	var out []sample
	dropped := 0
	var stack []*frame
	emit := func(f *frame) {
		p, _ := v.Position(f.x)
		key := p.Pack(nil)
		for _, h := range f.order {
			s := sample{board: bi, key: key, target: h, steps: float64(f.best[h])}
			if h == f.h {
				s.legal, s.policy = policyTarget(v, b, f.x)
			}
			out = append(out, s)
		}
		if keep > 0 && len(out) >= 2*keep {
			dropped += len(out) - keep
			out = append(out[:0], out[len(out)-keep:]...)
		}
	}
	// An explicit depth-first walk: enter a node, then its children in
	// order; a node's samples are complete once its subtree is done.
	type item struct {
		x     int32
		enter bool
	}
	work := []item{{mcts.Root, true}}
	for n := 0; len(work) > 0; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		it := work[len(work)-1]
		work = work[:len(work)-1]
		if !it.enter {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			emit(f)
			continue
		}
		_, r := v.Position(it.x)
		f := &frame{x: it.x, depth: t.Depth(it.x), h: -r, best: map[float64]int{}}
		stack = append(stack, f)
		for _, s := range stack {
			if f.h <= s.h {
				steps := f.depth - s.depth
				if old, ok := s.best[f.h]; !ok {
					s.best[f.h] = steps
					s.order = append(s.order, f.h)
				} else if steps < old {
					s.best[f.h] = steps
				}
			}
		}
		work = append(work, item{it.x, false})
		var kids []int32
		for y := t.First(it.x); y != mcts.None; y = t.Next(y) {
			kids = append(kids, y)
		}
		slices.Reverse(kids)
		for _, y := range kids {
			work = append(work, item{y, true})
		}
	}
	if keep > 0 && len(out) > keep {
		dropped += len(out) - keep
		out = out[len(out)-keep:]
	}
	return out, dropped, nil
}

// policyTarget is the visit distribution over the children of x, by the
// logits of their pushes, or nothing when fewer than two visits went to
// its children.
func policyTarget(v *mcts.ValueSearch, b *sokoban.Board, x int32) ([]int32, []float64) {
	t := v.Tree
	total := 0
	for y := t.First(x); y != mcts.None; y = t.Next(y) {
		total += t.Visits(y)
	}
	if total < 2 {
		return nil, nil
	}
	var legal []int32
	var policy []float64
	for y := t.First(x); y != mcts.None; y = t.Next(y) {
		legal = append(legal, grid.Logit(b, v.Push(y)))
		policy = append(policy, float64(t.Visits(y))/float64(total))
	}
	return legal, policy
}
