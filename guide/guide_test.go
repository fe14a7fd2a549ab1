package guide

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// synthetic returns examples where the move taken is the one holding row
// 7 among moves of random other rows: a rule a linear model can learn.
func synthetic(n int, seed uint64) []Example {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ex []Example
	for range n {
		k := 2 + rng.IntN(6)
		e := Example{Taken: rng.IntN(k)}
		for i := range k {
			rows := []uint32{uint32(100 + rng.IntN(50)), uint32(200 + rng.IntN(50))}
			if i == e.Taken {
				rows = append(rows, 7)
			}
			e.Moves = append(e.Moves, rows)
		}
		ex = append(ex, e)
	}
	return ex
}

// TestTrainLearnsARule: training takes the log loss well below the
// uniform policy's and ranks the taken move first on unseen examples of
// the same rule; the same examples and seed give the same weights.
func TestTrainLearnsARule(t *testing.T) {
	o := TrainOptions{Bits: 10, Epochs: 3, Rate: 0.1, Seed: 3}
	m, rep, err := Train(context.Background(), synthetic(500, 1), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.LossLast > rep.ChanceLoss/4 || rep.LossLast >= rep.LossFirst {
		t.Errorf("log loss %.3f → %.3f, uniform %.3f: not learnt", rep.LossFirst, rep.LossLast, rep.ChanceLoss)
	}
	if top := m.top(synthetic(200, 2)); top < 0.99 {
		t.Errorf("the taken move ranked first on %.2f of unseen examples", top)
	}
	again, _, _ := Train(context.Background(), synthetic(500, 1), o)
	if !slices.Equal(m.W, again.W) {
		t.Error("equal examples and seed gave different weights")
	}
	o.Seed = 4
	other, _, _ := Train(context.Background(), synthetic(500, 1), o)
	if slices.Equal(m.W, other.W) {
		t.Error("another seed gave the same weights: the order is not drawn from it")
	}
}

// TestProbabilities: the softmax of the scores, summing to 1, with the
// zero model uniform.
func TestProbabilities(t *testing.T) {
	m := NewModel(8)
	moves := [][]uint32{{1}, {2}, {1, 2}}
	pr := m.Probabilities(moves, nil)
	for _, p := range pr {
		if p < 0.3333 || p > 0.3334 {
			t.Fatalf("zero model: %v, want uniform", pr)
		}
	}
	m.W[1], m.W[2] = 1, -1
	pr = m.Probabilities(moves, pr)
	// scores 1, −1, 0
	want := []float64{0.6652, 0.0900, 0.2447}
	for i := range pr {
		if d := pr[i] - want[i]; d > 1e-4 || d < -1e-4 {
			t.Fatalf("got %v, want %v", pr, want)
		}
	}
}

// TestFileRoundTrip: a model is read back as written, and a corrupt,
// truncated or foreign file is refused with ErrFormat.
func TestFileRoundTrip(t *testing.T) {
	m, _, _ := Train(context.Background(), synthetic(100, 5), TrainOptions{Bits: 9, Epochs: 1, Rate: 0.1})
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if !IsModel(data) {
		t.Fatal("IsModel: false on a model")
	}
	back, err := Read(bytes.NewReader(data))
	if err != nil || back.Bits != m.Bits || !slices.Equal(back.W, m.W) {
		t.Fatalf("read back: %v", err)
	}
	path := filepath.Join(t.TempDir(), "g.bin")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	opened, err := Open(path)
	if err != nil || !slices.Equal(opened.W, m.W) {
		t.Fatalf("Open: %v", err)
	}
	if again, _ := Open(path); again != opened {
		t.Error("Open read an unchanged file twice")
	}
	flipped := slices.Clone(data)
	flipped[len(flipped)/2] ^= 1
	for name, bad := range map[string][]byte{
		"truncated": data[:len(data)-10],
		"corrupt":   flipped,
		"foreign":   []byte("SOKOLTS\nxxxx"),
		"empty":     nil,
	} {
		if _, err := Read(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: got %v, want ErrFormat", name, err)
		}
	}
}
