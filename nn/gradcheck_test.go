package nn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// randomBatch returns count samples of h×w boards for a network of shape c,
// with random planes, value targets and policy targets on random legal
// logits (one sample without a policy target).
func randomBatch(c Config, count, h, w int, r *rand.Rand) []Sample {
	batch := make([]Sample, count)
	for i := range batch {
		s := &batch[i]
		s.Planes = make([]float64, c.Planes*h*w)
		for j := range s.Planes {
			s.Planes[j] = r.Float64()*2 - 1
		}
		s.Value = r.NormFloat64()
		if i == 0 {
			continue
		}
		sum := 0.0
		for l := range 4 * h * w {
			if r.IntN(3) == 0 {
				s.Legal = append(s.Legal, int32(l))
				q := r.Float64()
				s.Policy = append(s.Policy, q)
				sum += q
			}
		}
		for j := range s.Policy {
			s.Policy[j] /= sum
		}
	}
	return batch
}

// TestGradientCheck compares every weight's backpropagated gradient with
// the central finite difference of the total loss (value plus policy), with
// the whole batch in one chunk, one board per chunk, and chunks of 7
// squares that cut rows and boards.
func TestGradientCheck(t *testing.T) {
	t.Run("one chunk", gradientCheck)
	for _, c := range []struct {
		name   string
		values int
		min    int
	}{{"a board per chunk", 1, 1 << 30}, {"7 squares per chunk", 1, 7}} {
		t.Run(c.name, func(t *testing.T) {
			defer setChunks(chunkValues, minChunk)
			setChunks(c.values, c.min)
			gradientCheck(t)
		})
	}
}

// setChunks sets the chunk sizes of the convolutions (see conv.chunk).
func setChunks(values, min int) { chunkValues, minChunk = values, min }

func gradientCheck(t *testing.T) {
	c := Config{Planes: 3, Embed: 4, Channels: 5, Blocks: 2, Hidden: 6}
	n, err := New(c, 7)
	if err != nil {
		t.Fatal(err)
	}
	// Larger second convolutions than New's, so that the blocks' gradients
	// are not too small to check.
	r := rand.New(rand.NewPCG(3, 4))
	for _, b := range n.blocks {
		for i := range b[1].weight.w {
			b[1].weight.w[i] = r.NormFloat64() * 0.3
		}
	}
	for _, p := range n.params {
		for i := range p.w {
			p.w[i] += r.NormFloat64() * 0.01 // biases off zero
		}
	}
	const h, w = 4, 5
	batch := randomBatch(c, 3, h, w, r)
	total := func() float64 {
		v, p, _, _, err := n.loss(context.Background(), batch, h, w)
		if err != nil {
			t.Fatal(err)
		}
		return v + p
	}
	_, _, dv, dl, err := n.loss(context.Background(), batch, h, w)
	if err != nil {
		t.Fatal(err)
	}
	n.zeroGrad()
	n.backward(context.Background(), dv, dl)
	if got, want := len(n.params), 4+4*c.Blocks+6; got != want {
		t.Fatalf("%d weight tensors, want %d", got, want)
	}
	count := 0
	for pi, p := range n.params {
		count += len(p.w)
		grad := append([]float64(nil), p.g...)
		for i := range p.w {
			const eps = 1e-5
			old := p.w[i]
			p.w[i] = old + eps
			up := total()
			p.w[i] = old - eps
			down := total()
			p.w[i] = old
			numeric := (up - down) / (2 * eps)
			if diff := math.Abs(numeric - grad[i]); diff > 1e-6+1e-4*math.Max(math.Abs(numeric), math.Abs(grad[i])) {
				t.Errorf("tensor %d weight %d: backprop %.9g, finite difference %.9g", pi, i, grad[i], numeric)
			}
		}
	}
	if count != c.Weights() {
		t.Errorf("%d weights, Config.Weights says %d", count, c.Weights())
	}
}

// TestGradientNotZero guards the check above against a network whose
// gradients vanish (it would pass trivially): every tensor gets some.
func TestGradientNotZero(t *testing.T) {
	c := Config{Planes: 2, Embed: 3, Channels: 4, Blocks: 1, Hidden: 3}
	n, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	batch := randomBatch(c, 4, 3, 3, r)
	_, _, dv, dl, err := n.loss(context.Background(), batch, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	n.zeroGrad()
	n.backward(context.Background(), dv, dl)
	for pi, p := range n.params {
		nonzero := false
		for _, g := range p.g {
			nonzero = nonzero || g != 0
		}
		if !nonzero {
			t.Errorf("tensor %d has a zero gradient", pi)
		}
	}
}

// TestChunksAgree: the values, logits and gradients of a batch are the same
// up to rounding whatever the chunk size, whether chunks hold whole boards
// or cut them.
func TestChunksAgree(t *testing.T) {
	run := func(chunk, min int) (vals, logits, grads []float64) {
		defer setChunks(chunkValues, minChunk)
		setChunks(chunk, min)
		c := Config{Planes: 3, Embed: 4, Channels: 6, Blocks: 2, Hidden: 5}
		n, err := New(c, 11)
		if err != nil {
			t.Fatal(err)
		}
		batch := randomBatch(c, 7, 5, 6, rand.New(rand.NewPCG(8, 8)))
		_, _, dv, dl, err := n.loss(context.Background(), batch, 5, 6)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, n.value...)
		logits = append(logits, n.logits...)
		n.zeroGrad()
		n.backward(context.Background(), dv, dl)
		for _, p := range n.params {
			grads = append(grads, p.g...)
		}
		return vals, logits, grads
	}
	v1, l1, g1 := run(1, 1<<30)
	v2, l2, g2 := run(1<<30, 1<<30)
	v3, l3, g3 := run(3*6*9*30, 1<<30) // 3 boards per chunk in the tower
	v4, l4, g4 := run(1, 1)            // a square per chunk
	v5, l5, g5 := run(1, 4)            // 4 squares of rows of 6
	for _, c := range []struct {
		name string
		got  [][]float64
		want []float64
	}{{"values", [][]float64{v1, v3, v4, v5}, v2}, {"logits", [][]float64{l1, l3, l4, l5}, l2}, {"gradients", [][]float64{g1, g3, g4, g5}, g2}} {
		for i := range c.want {
			for _, got := range c.got {
				if math.Abs(got[i]-c.want[i]) > 1e-12*(1+math.Abs(c.want[i])) {
					t.Fatalf("%s[%d]: %v chunked, %v in one chunk", c.name, i, got[i], c.want[i])
				}
			}
		}
	}
}
