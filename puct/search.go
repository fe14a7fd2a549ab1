package puct

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"soko/distance"
	"soko/internal/chunked"
	"soko/internal/grid"
	"soko/sokoban"
)

// none is the parent of the root and the index of no node.
const none int32 = -1

// node is one position of the tree. A node's children are the nodes
// first to first+count−1, in the order Position.Pushes generates their
// pushes; count is set when the node is expanded.
type node struct {
	parent, first, count int32
	push                 sokoban.Push // from the parent
	prior                float32      // P(parent, push)
	n                    int32        // visits: simulations through the node
	w                    float64      // sum of the leaf values backed up through it
	expanded             bool
	dead                 bool // no solution below: see Search.kill
}

// at returns node x, which stays where it is as the tree grows.
func (s *Search) at(x int32) *node { return s.nodes.At(int(x)) }

// Outcome is how one simulation ended.
type Outcome int8

const (
	Going     Outcome = iota // the search goes on
	Found                    // a solved position entered the tree
	Exhausted                // every position of the tree is dead: no solution
)

// Search is one PUCT search from a root position (see the package
// comment). It is deterministic: it draws no random numbers except in
// noise, which only self-play calls.
type Search struct {
	bd    *board
	model *Model // nil: uniform priors and the bound as the value
	c     float64
	ctx   context.Context
	// Stopped is ctx's error once a network evaluation was stopped by it;
	// the search should then end.
	Stopped error

	nodes  chunked.Slice[node] // never copied as it grows
	store  *sokoban.Store      // the states in the tree, and those excluded
	root   []byte              // the root position, packed exactly
	pos    *sokoban.Position
	goal   int32   // the solved node, once found
	lo, hi float64 // the least and greatest values of live leaves evaluated

	pushes              []sokoban.Push
	key                 []byte
	path                []int32
	in, values, logits  []float64
	Expanded, Evaluated int64
}

// newSearch returns a search from position root of board bd with model m
// (nil: none) and exploration constant c. The network stops when ctx ends.
func newSearch(ctx context.Context, bd *board, m *Model, c float64, root *sokoban.Position) *Search {
	s := &Search{bd: bd, model: m, c: c, ctx: ctx, store: sokoban.NewStore(bd.b.KeySize()),
		root: root.PackExact(nil), pos: root.Clone(), goal: none}
	s.exclude(root)
	s.nodes.Append(node{parent: none, first: none})
	return s
}

// exclude keeps position p out of the tree: it is the root, or a position
// an episode has passed through, which the search must not go back to.
func (s *Search) exclude(p *sokoban.Position) {
	s.key = p.Pack(s.key[:0])
	s.store.Intern(s.key, p.Hash())
}

// Iterate runs one simulation: from the root, select children by PUCT
// down to a leaf, expand and evaluate it, back its value up the path.
func (s *Search) Iterate() Outcome {
	if s.at(0).dead {
		return Exhausted
	}
	s.pos.Unpack(s.root)
	x := int32(0)
	s.path = append(s.path[:0], 0)
	for s.at(x).expanded {
		x = s.choose(x)
		s.pos.Apply(s.at(x).push)
		s.path = append(s.path, x)
	}
	v, found := s.expand(x)
	if found {
		return Found
	}
	for _, y := range s.path {
		s.at(y).n++
		s.at(y).w += v
	}
	if s.at(0).dead {
		return Exhausted
	}
	return Going
}

// choose returns the live child of x with the highest PUCT score
//
//	Q̂(c) + C·P(c)·√N(x) / (1 + N(c)),
//
// where N counts visits, P is the prior and Q̂ the child's mean value
// normalised by the least and greatest values of the live leaves the
// search has evaluated (MuZero's normalisation: the leaf values of a
// Sokoban search span a narrow, level-dependent range; dead leaves, worth
// 0, are left out of it). A child never visited takes its
// parent's mean value. Ties go to the first child. x has a live child.
func (s *Search) choose(x int32) int32 {
	p := s.at(x)
	sq := math.Sqrt(float64(p.n))
	fpu := s.norm(p.w / float64(max(p.n, 1)))
	best, top := none, math.Inf(-1)
	for c := p.first; c < p.first+p.count; c++ {
		ch := s.at(c)
		if ch.dead {
			continue
		}
		q := fpu
		if ch.n > 0 {
			q = s.norm(ch.w / float64(ch.n))
		}
		if u := q + s.c*float64(ch.prior)*sq/float64(1+ch.n); u > top {
			best, top = c, u
		}
	}
	return best
}

// norm maps a mean value into [0, 1] by the range of leaf values seen.
func (s *Search) norm(q float64) float64 {
	if s.hi > s.lo {
		return (q - s.lo) / (s.hi - s.lo)
	}
	return 0
}

// expand adds the children of leaf x, the working position, and returns
// x's value; true when one of the children is solved. A child is left out
// when its push goes onto a dead square, the detectors find it
// deadlocked, or its state is already in the tree (where it is searched
// already). A leaf left without children, or whose bound is infeasible,
// is dead and worth 0.
func (s *Search) expand(x int32) (float64, bool) {
	s.Expanded++
	s.at(x).expanded = true
	h, ok := s.bd.Bound(s.pos)
	if !ok {
		s.kill(x)
		return 0, false
	}
	s.pushes = s.bd.Children(s.pos, s.pushes[:0])
	first := int32(s.nodes.Len())
	for _, m := range s.pushes {
		s.pos.Apply(m)
		s.key = s.pos.Pack(s.key[:0])
		_, fresh := s.store.Intern(s.key, s.pos.Hash())
		solved := s.pos.Solved()
		s.pos.Undo(m)
		if !fresh {
			continue
		}
		s.nodes.Append(node{parent: x, first: none, push: m})
		if solved {
			s.goal = int32(s.nodes.Len() - 1)
			s.at(x).first, s.at(x).count = first, int32(s.nodes.Len())-first
			return 1, true
		}
	}
	s.at(x).first, s.at(x).count = first, int32(s.nodes.Len())-first
	if s.at(x).count == 0 {
		s.kill(x)
		return 0, false
	}
	v := s.evaluate(x, h)
	if s.Evaluated == 1 {
		s.lo, s.hi = v, v
	} else {
		s.lo, s.hi = min(s.lo, v), max(s.hi, v)
	}
	return v, false
}

// evaluate sets the priors of x's children and returns x's value
// Gamma^(h+gap): with a model, the policy head's softmax over the
// children's pushes and the value head's pushes above the bound h;
// without one (or once the context has stopped the network), uniform
// priors and the bound alone.
func (s *Search) evaluate(x int32, h int) float64 {
	s.Evaluated++
	p := s.at(x)
	first, end := p.first, p.first+p.count
	if s.model != nil && s.Stopped == nil {
		b := s.bd.b
		s.in = s.bd.Encode(s.in[:0], s.pos, h)
		var err error
		s.values, s.logits, err = s.model.Net.Evaluate(s.ctx, s.in, 1, b.Level.Height, b.Width, s.values, s.logits)
		if err == nil {
			top := math.Inf(-1)
			for c := first; c < end; c++ {
				top = max(top, s.logits[grid.Logit(b, s.at(c).push)])
			}
			sum := 0.0
			for c := first; c < end; c++ {
				k := s.at(c)
				e := math.Exp(s.logits[grid.Logit(b, k.push)] - top)
				k.prior = float32(e)
				sum += e
			}
			for c := first; c < end; c++ {
				s.at(c).prior = float32(float64(s.at(c).prior) / sum)
			}
			return math.Pow(Gamma, float64(h)+distance.Gap(s.values[0]))
		}
		if s.ctx.Err() == nil {
			panic(fmt.Sprintf("puct: a batch the search built is malformed: %v", err))
		}
		s.Stopped = err
	}
	for c := first; c < end; c++ {
		s.at(c).prior = float32(1 / float64(p.count))
	}
	return math.Pow(Gamma, float64(h))
}

// kill marks x dead, and with it every ancestor all of whose children are
// dead: a dead node has no solution below it that is not searched
// elsewhere in the tree (a child left out as already in the tree is
// searched at its own node), so a dead root proves there is none.
func (s *Search) kill(x int32) {
	for x != none {
		s.at(x).dead = true
		p := s.at(x).parent
		if p == none {
			return
		}
		q := s.at(p)
		for c := q.first; c < q.first+q.count; c++ {
			if !s.at(c).dead {
				return
			}
		}
		x = p
	}
}

// solution returns the pushes from the root to the solved node.
func (s *Search) solution() []sokoban.Push {
	var pushes []sokoban.Push
	for x := s.goal; x > 0; x = s.at(x).parent {
		pushes = append(pushes, s.at(x).push)
	}
	for i, j := 0, len(pushes)-1; i < j; i, j = i+1, j-1 {
		pushes[i], pushes[j] = pushes[j], pushes[i]
	}
	return pushes
}

// bytes is the memory of the tree and its state store.
func (s *Search) bytes() int64 {
	return s.nodes.Bytes() + s.store.Bytes()
}

// noise mixes Dirichlet(alpha) noise into the priors of the root's
// children, p ← (1−eps)·p + eps·η (AlphaZero's exploration in self-play;
// the solver adds none). The root must be expanded.
func (s *Search) noise(rng *rand.Rand, alpha, eps float64) {
	r := s.at(0)
	eta := make([]float64, r.count)
	sum := 0.0
	for i := range eta {
		eta[i] = gammaSample(rng, alpha)
		sum += eta[i]
	}
	if sum <= 0 {
		return
	}
	for i := range eta {
		k := s.at(r.first + int32(i))
		k.prior = float32((1-eps)*float64(k.prior) + eps*eta[i]/sum)
	}
}

// gammaSample draws from the Gamma(a, 1) distribution (Marsaglia and
// Tsang 2000; for a < 1, Gamma(a+1)·U^(1/a)).
func gammaSample(rng *rand.Rand, a float64) float64 {
	if a < 1 {
		return gammaSample(rng, a+1) * math.Pow(1-rng.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := 1 - rng.Float64()
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}
