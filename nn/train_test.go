package nn

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// learnable returns boards whose value target is the number of squares set
// in plane 0 divided by 4, and whose policy target is the one logit of the
// set square with the smallest index among a few legal ones.
func learnable(c Config, count, h, w int, r *rand.Rand) []Sample {
	batch := make([]Sample, count)
	hw := h * w
	for i := range batch {
		s := &batch[i]
		s.Planes = make([]float64, c.Planes*hw)
		set := 0
		for j := range hw {
			if r.IntN(4) == 0 {
				s.Planes[j] = 1
				set++
			}
		}
		s.Value = float64(set) / 4
		for l := range 3 {
			s.Legal = append(s.Legal, int32(l*hw+r.IntN(hw)))
			s.Policy = append(s.Policy, 0)
		}
		s.Policy[r.IntN(3)] = 1
	}
	return batch
}

// TestTrainingLearns: a few hundred Adam steps cut the value loss of a
// simple counting target on boards never trained on by a large factor.
func TestTrainingLearns(t *testing.T) {
	c := Config{Planes: 2, Embed: 4, Channels: 8, Blocks: 1, Hidden: 8}
	n, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 2))
	test := learnable(c, 64, 5, 5, r)
	before, _, _, _, err := n.loss(context.Background(), test, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	for range 400 {
		if _, _, err := n.Train(context.Background(), learnable(c, 16, 5, 5, r), 5, 5); err != nil {
			t.Fatal(err)
		}
	}
	after, _, _, _, err := n.loss(context.Background(), test, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	if after > before/10 {
		t.Errorf("value loss %.4f before training, %.4f after: want a tenth or less", before, after)
	}
}

// TestTrainingDeterministic: equal seeds and batches give byte-identical
// models, with one thread or two (GEMM splits the work over threads).
func TestTrainingDeterministic(t *testing.T) {
	train := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := Config{Planes: 2, Embed: 8, Channels: 32, Blocks: 1, Hidden: 8}
		n, err := New(c, 3)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(4, 4))
		for range 3 {
			if _, _, err := n.Train(context.Background(), learnable(c, 32, 10, 10, r), 10, 10); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := n.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	one, two := train(1), train(2)
	if !bytes.Equal(one, two) {
		t.Error("the model trained with two threads differs from the one trained with one")
	}
	if !bytes.Equal(one, train(1)) {
		t.Error("two runs with one thread differ")
	}
}

func TestBadBatches(t *testing.T) {
	n := smallNet(t, 1)
	if _, err := n.Values(context.Background(), make([]float64, 10), 1, 4, 4, nil); err == nil {
		t.Error("Values accepted 10 inputs for a 4×4 board of 3 planes")
	}
	s := Sample{Planes: make([]float64, 3*16), Legal: []int32{64}, Policy: []float64{1}}
	if _, _, err := n.Train(context.Background(), []Sample{s}, 4, 4); err == nil {
		t.Error("Train accepted logit 64 on a 4×4 board")
	}
	if _, err := New(Config{Planes: 1, Embed: 1, Channels: 1, Blocks: 0, Hidden: 1}, 1); err == nil {
		t.Error("New accepted a network of no blocks")
	}
}

// TestEvaluateMatchesTraining: Evaluate's values are Values', and its
// logits are those training reads at Sample.Legal's indices, board by
// board, whether boards go in one batch or alone.
func TestEvaluateMatchesTraining(t *testing.T) {
	c := Config{Planes: 2, Embed: 4, Channels: 8, Blocks: 1, Hidden: 8}
	n, err := New(c, 5)
	if err != nil {
		t.Fatal(err)
	}
	const h, w, count = 4, 5, 3
	hw := h * w
	batch := learnable(c, count, h, w, rand.New(rand.NewPCG(6, 6)))
	var in []float64
	for _, s := range batch {
		in = append(in, s.Planes...)
	}
	ctx := context.Background()
	values, logits, err := n.Evaluate(ctx, in, count, h, w, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := n.Values(ctx, in, count, h, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(values) != count || len(logits) != 4*hw*count {
		t.Fatalf("%d values and %d logits, want %d and %d", len(values), len(logits), count, 4*hw*count)
	}
	if _, _, _, _, err := n.loss(ctx, batch, h, w); err != nil {
		t.Fatal(err)
	}
	trained := append([]float64(nil), n.logits...) // the next evaluations overwrite them
	m := count * hw
	for b := range count {
		if values[b] != want[b] {
			t.Errorf("board %d: Evaluate's value %g, Values' %g", b, values[b], want[b])
		}
		alone, one, err := n.Evaluate(ctx, batch[b].Planes, 1, h, w, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(alone[0]-values[b]) > 1e-12 {
			t.Errorf("board %d: value %g alone, %g in the batch", b, alone[0], values[b])
		}
		for l := range 4 * hw {
			got := logits[b*4*hw+l]
			if tr := trained[l/hw*m+b*hw+l%hw]; got != tr {
				t.Fatalf("board %d, logit %d: Evaluate %g, training %g", b, l, got, tr)
			}
			if math.Abs(one[l]-got) > 1e-12 {
				t.Fatalf("board %d, logit %d: %g alone, %g in the batch", b, l, one[l], got)
			}
		}
	}
}
