package guide

import (
	"context"
	"math"
	"math/rand/v2"
)

// Example is one choice of a solution: the context rows of each move of a
// position (Moves[i] the rows of move i), and which of them the solution
// took.
type Example struct {
	Moves [][]uint32
	Taken int
}

// The defaults of TrainOptions: those of the model docs/learning.md
// measures (not tuned).
const (
	DefaultEpochs = 4
	DefaultRate   = 0.05
)

// TrainOptions configure Train.
type TrainOptions struct {
	Bits   uint    // table size (DefaultBits when 0)
	Epochs int     // passes over the examples
	Rate   float64 // step size of the gradient steps
	Seed   uint64  // the order of the examples in each pass
}

// TrainReport says what Train did: the mean log loss of the examples in
// the first and in the last pass (each taken before its step; with no
// pass, the zero model's), and how often the model's best move was the one
// taken, before and after.
type TrainReport struct {
	Examples                 int
	LossFirst, LossLast      float64
	TopBefore, TopAfter      float64
	ChanceLoss, ChanceTopOne float64 // the same of the zero model (uniform among the moves)
}

// Train fits a model to the examples by stochastic gradient steps on the
// log loss of the move taken, in an order drawn from o.Seed: equal
// examples and options give the same model. When ctx is cancelled it
// returns the model so far with ctx's error.
func Train(ctx context.Context, ex []Example, o TrainOptions) (*Model, TrainReport, error) {
	bits := o.Bits
	if bits == 0 {
		bits = DefaultBits
	}
	m := NewModel(bits)
	rep := TrainReport{Examples: len(ex)}
	if len(ex) == 0 {
		return m, rep, nil
	}
	for _, e := range ex {
		rep.ChanceLoss += math.Log(float64(len(e.Moves)))
		rep.ChanceTopOne += 1 / float64(len(e.Moves))
	}
	rep.ChanceLoss /= float64(len(ex))
	rep.ChanceTopOne /= float64(len(ex))
	rep.LossFirst, rep.LossLast = rep.ChanceLoss, rep.ChanceLoss // the zero model's, until a pass
	rep.TopBefore = m.top(ex)
	rng := rand.New(rand.NewPCG(o.Seed, 0x67756964)) // "guid"
	order := make([]int, len(ex))
	for i := range order {
		order[i] = i
	}
	var pr []float64
	for ep := range o.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		loss := 0.0
		for k, i := range order {
			if k%4096 == 0 && ctx.Err() != nil {
				return m, rep, ctx.Err()
			}
			var l float64
			l, pr = m.step(ex[i], o.Rate, pr)
			loss += l
		}
		loss /= float64(len(ex))
		if ep == 0 {
			rep.LossFirst = loss
		}
		rep.LossLast = loss
	}
	rep.TopAfter = m.top(ex)
	return m, rep, nil
}

// Probabilities writes to pr the softmax of the moves' scores and returns
// it.
func (m *Model) Probabilities(moves [][]uint32, pr []float64) []float64 {
	pr = pr[:0]
	for _, rows := range moves {
		pr = append(pr, float64(m.Score(rows)))
	}
	Softmax(pr)
	return pr
}

// Softmax turns scores, in place, into their softmax: the probabilities
// of the moves they score.
func Softmax(scores []float64) {
	top := math.Inf(-1)
	for _, s := range scores {
		top = max(top, s)
	}
	sum := 0.0
	for i := range scores {
		scores[i] = math.Exp(scores[i] - top)
		sum += scores[i]
	}
	for i := range scores {
		scores[i] /= sum
	}
}

// step makes one gradient step of −log p(taken) at rate eta and returns
// the loss before it. The gradient in a weight is the summed p(i) −
// [i = taken] of the moves whose rows hold it.
func (m *Model) step(e Example, eta float64, pr []float64) (float64, []float64) {
	pr = m.Probabilities(e.Moves, pr)
	loss := -math.Log(max(pr[e.Taken], 1e-300))
	for i, rows := range e.Moves {
		g := pr[i]
		if i == e.Taken {
			g--
		}
		d := float32(eta * g)
		for _, r := range rows {
			m.W[r] -= d
		}
	}
	return loss, pr
}

// top returns the share of the examples whose taken move has the best
// score (ties count as a share of the tied).
func (m *Model) top(ex []Example) float64 {
	hit := 0.0
	for _, e := range ex {
		best, n := float32(math.Inf(-1)), 0
		for _, rows := range e.Moves {
			switch s := m.Score(rows); {
			case s > best:
				best, n = s, 1
			case s == best:
				n++
			}
		}
		if m.Score(e.Moves[e.Taken]) == best {
			hit += 1 / float64(n)
		}
	}
	return hit / float64(len(ex))
}
