package nn

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// held is the memory of the slices the network keeps between calls.
func (n *Net) held() int64 {
	total := 0
	for _, p := range n.params {
		total += cap(p.w) + cap(p.g) + cap(p.m) + cap(p.v)
	}
	for _, b := range [][]float64{n.x0, n.e, n.pool, n.hid, n.value, n.logits, n.cols, n.tmp,
		n.in, n.dv, n.dl, n.prob, n.dhid, n.dpool, n.da, n.dinner, n.dx, n.de} {
		total += cap(b)
	}
	for _, b := range slices.Concat(n.acts, n.inner) {
		total += cap(b)
	}
	return 8 * int64(total)
}

// TestBytes: Config.Bytes covers what evaluating and training hold (the
// network's slices after a call, plus what a second call on the same batch
// allocates and drops), and is not far above it, on small
// boards and on boards bigger than a chunk.
func TestBytes(t *testing.T) {
	c := Config{Planes: 5, Embed: 4, Channels: 8, Blocks: 3, Hidden: 6}
	for _, b := range []struct{ count, h, w int }{{3, 5, 6}, {1, 20, 20}, {4, 17, 19}} {
		batch := randomBatch(c, b.count, b.h, b.w, rand.New(rand.NewPCG(1, 1)))
		var in []float64
		for _, s := range batch {
			in = append(in, s.Planes...)
		}
		for _, train := range []bool{false, true} {
			n, err := New(c, 1)
			if err != nil {
				t.Fatal(err)
			}
			var out []float64
			step := func() {
				if train {
					_, _, err = n.Train(context.Background(), batch, b.h, b.w)
				} else {
					out, err = n.Values(context.Background(), in, b.count, b.h, b.w, out)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			step()
			step() // a second batch reuses the first one's slices
			used := n.held() + 8*int64(cap(out))
			want := c.Bytes(b.count, b.h*b.w, train)
			if used > want || 3*want > 4*used {
				t.Errorf("%d boards of %d×%d, training %v: %d bytes used, Bytes says %d", b.count, b.h, b.w, train, used, want)
			}
		}
	}
}

// TestCancelled: evaluation and training on a cancelled context stop with
// its error, and a stopped step leaves the weights as they were.
func TestCancelled(t *testing.T) {
	c := Config{Planes: 2, Embed: 3, Channels: 4, Blocks: 2, Hidden: 3}
	n, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	batch := randomBatch(c, 2, 4, 4, rand.New(rand.NewPCG(1, 1)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var before, after bytes.Buffer
	n.Write(&before)
	if _, _, err := n.Train(ctx, batch, 4, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("Train on a cancelled context: %v", err)
	}
	n.Write(&after)
	if !bytes.Equal(before.Bytes(), after.Bytes()) {
		t.Error("a cancelled training step changed the weights")
	}
	in := slices.Concat(batch[0].Planes, batch[1].Planes)
	if _, err := n.Values(ctx, in, 2, 4, 4, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Values on a cancelled context: %v", err)
	}
}
