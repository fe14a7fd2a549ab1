package nn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Config is the shape of a network.
type Config struct {
	Planes   int // input feature planes per square
	Embed    int // channels of the 1×1 embedding
	Channels int // channels of the residual tower
	Blocks   int // residual blocks
	Hidden   int // units of the value head's hidden layer
}

// Limits of a Config, far above any useful network and small enough that a
// model file cannot ask for an absurd allocation.
const (
	MaxPlanes   = 64
	MaxChannels = 256
	MaxBlocks   = 32
	MaxHidden   = 1024
)

// Check reports whether c is a shape this package builds.
func (c Config) Check() error {
	for _, f := range []struct {
		name   string
		v, max int
	}{
		{"planes", c.Planes, MaxPlanes}, {"embed", c.Embed, MaxChannels}, {"channels", c.Channels, MaxChannels},
		{"blocks", c.Blocks, MaxBlocks}, {"hidden", c.Hidden, MaxHidden},
	} {
		if f.v < 1 || f.v > f.max {
			return fmt.Errorf("network %s %d: want 1 to %d", f.name, f.v, f.max)
		}
	}
	return nil
}

// Weights is the number of weights of a network of shape c.
func (c Config) Weights() int {
	n := c.Embed*c.Planes + c.Embed
	n += c.Channels*c.Embed*9 + c.Channels
	n += c.Blocks * 2 * (c.Channels*c.Channels*9 + c.Channels)
	n += c.Hidden*c.Channels + c.Hidden + c.Hidden + 1
	n += 4*c.Channels + 4
	return n
}

// Bytes returns the most memory a network of shape c holds while it
// evaluates (train false) or takes a training step on (train true) a batch
// of count boards of hw squares each: its weights (with their gradients
// and Adam's two moments when training), activations, gradients of the
// activations and scratch matrices. Evaluation keeps two of the tower's
// activations at a time; training keeps them all for backpropagation.
func (c Config) Bytes(count, hw int, train bool) int64 {
	m, n := int64(count)*int64(hw), int64(count)
	p, e, ch, b, h := int64(c.Planes), int64(c.Embed), int64(c.Channels), int64(c.Blocks), int64(c.Hidden)
	// The im2col scratch of the 3×3 convolutions, the largest chunk.
	cols := int64(0)
	for _, in := range []int{c.Embed, c.Channels} {
		l := conv{in: in, k: 3}
		cols = max(cols, int64(in)*9*min(m, int64(l.chunk(hw))))
	}
	vals := p*m + e*m + (ch+h+2)*n + 4*m + cols // input, embedding, pool, hidden, value and output, logits
	weights := int64(c.Weights())
	if !train {
		return 8 * (weights + vals + 3*ch*m) // two of the tower's activations and one inner one
	}
	vals += (2*b+1)*ch*m + p*m + n + 4*m + 4*int64(hw) // every activation, the batch's input, the loss's derivatives, a board's probabilities
	vals += (h+ch)*n + 3*ch*m + e*m + cols             // backward: the heads, three tower gradients, the embedding's, col2im's scratch
	return 8 * (4*weights + vals)
}

// Net is the residual value/policy network (see the package comment). A
// Net is not safe for concurrent use: it keeps the activations of its last
// batch for backpropagation.
type Net struct {
	Config
	// Meta is a short text its user stores with the weights, such as the
	// meaning of the input planes; Save and Load keep it.
	Meta string

	embed, stem *conv
	blocks      [][2]*conv
	hidden, out *dense
	policy      *conv
	params      []*param
	step        int // Adam steps taken

	// The last forward pass.
	s      shape
	x0, e  []float64
	acts   [][]float64 // input of block i, and the tower's output last
	inner  [][]float64 // relu(conv1) inside block i
	pool   []float64   // Channels × N
	hid    []float64   // Hidden × N
	value  []float64   // N
	logits []float64   // 4 × N·H·W
	cols   []float64
	tmp    []float64

	// Training's scratch, kept from step to step: the batch's input, the
	// derivatives of the loss and of the activations, one board's
	// probabilities.
	in, dv, dl, prob []float64
	dhid, dpool      []float64
	da, dinner, dx   []float64
	de               []float64
}

// New returns a network of shape c with weights drawn from a generator
// seeded by seed (He initialisation; the second convolution of each block
// starts small so that the tower starts close to the identity).
func New(c Config, seed uint64) (*Net, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	n := build(c)
	r := rand.New(rand.NewPCG(seed, 0x6e6e))
	he := func(p *param, fanIn int, scale float64) {
		sd := scale * math.Sqrt(2/float64(fanIn))
		for i := range p.w {
			p.w[i] = r.NormFloat64() * sd
		}
	}
	he(n.embed.weight, c.Planes, 1)
	he(n.stem.weight, c.Embed*9, 1)
	for _, b := range n.blocks {
		he(b[0].weight, c.Channels*9, 1)
		he(b[1].weight, c.Channels*9, 0.1)
	}
	he(n.hidden.weight, c.Channels, 1)
	he(n.out.weight, c.Hidden, 0.5)
	he(n.policy.weight, c.Channels, 0.5)
	return n, nil
}

// build allocates the layers of shape c with zero weights.
func build(c Config) *Net {
	n := &Net{Config: c}
	n.embed = newConv(c.Planes, c.Embed, 1)
	n.stem = newConv(c.Embed, c.Channels, 3)
	n.params = append(n.params, n.embed.weight, n.embed.bias, n.stem.weight, n.stem.bias)
	n.blocks = make([][2]*conv, c.Blocks)
	for i := range n.blocks {
		n.blocks[i] = [2]*conv{newConv(c.Channels, c.Channels, 3), newConv(c.Channels, c.Channels, 3)}
		n.params = append(n.params, n.blocks[i][0].weight, n.blocks[i][0].bias, n.blocks[i][1].weight, n.blocks[i][1].bias)
	}
	n.hidden = newDense(c.Channels, c.Hidden)
	n.out = newDense(c.Hidden, 1)
	n.policy = newConv(c.Channels, 4, 1)
	n.params = append(n.params, n.hidden.weight, n.hidden.bias, n.out.weight, n.out.bias, n.policy.weight, n.policy.bias)
	n.acts = make([][]float64, c.Blocks+1)
	n.inner = make([][]float64, c.Blocks)
	return n
}

// checkBatch validates the size of a batch of count boards of h×w squares
// whose planes are in, one board after the other.
func (n *Net) checkBatch(in []float64, count, h, w int) error {
	if count < 1 || h < 1 || w < 1 {
		return fmt.Errorf("nn: batch of %d boards of %d×%d squares", count, h, w)
	}
	if want := count * n.Planes * h * w; len(in) != want {
		return fmt.Errorf("nn: %d input values for %d boards of %d planes of %d×%d: want %d", len(in), count, n.Planes, h, w, want)
	}
	return nil
}

// forward runs the network on count boards whose planes lie one board
// after the other in in (board-major: board, plane, row, column). Training
// (keep) keeps every block's activations for backpropagation; evaluation
// keeps two at a time. It stops between layers and chunks with ctx's error
// once ctx is done.
func (n *Net) forward(ctx context.Context, in []float64, count, h, w int, keep bool) error {
	hw := h * w
	n.s = shape{c: n.Planes, n: count, h: h, w: w}
	m := n.s.cols()
	n.x0 = grow(n.x0, n.Planes*m)
	for b := range count {
		for p := range n.Planes {
			copy(n.x0[p*m+b*hw:][:hw], in[(b*n.Planes+p)*hw:][:hw])
		}
	}
	if !keep {
		clear(n.acts[2:]) // what training kept, so that evaluation holds no more than Bytes says
		clear(n.inner[1:])
	}
	var err error
	if n.e, n.cols, err = n.embed.forward(ctx, n.x0, n.s, n.e, n.cols); err != nil {
		return err
	}
	es := shape{c: n.Embed, n: count, h: h, w: w}
	if n.acts[0], n.cols, err = n.stem.forward(ctx, n.e, es, n.acts[0], n.cols); err != nil {
		return err
	}
	relu(n.acts[0])
	cs := shape{c: n.Channels, n: count, h: h, w: w}
	top := 0
	for i, b := range n.blocks {
		src, mid, dst := i, i, i+1
		if !keep {
			src, mid, dst = i%2, 0, (i+1)%2
		}
		if n.inner[mid], n.cols, err = b[0].forward(ctx, n.acts[src], cs, n.inner[mid], n.cols); err != nil {
			return err
		}
		relu(n.inner[mid])
		if n.acts[dst], n.cols, err = b[1].forward(ctx, n.inner[mid], cs, n.acts[dst], n.cols); err != nil {
			return err
		}
		a, x := n.acts[dst], n.acts[src]
		for j := range a {
			a[j] = max(a[j]+x[j], 0)
		}
		top = dst
	}
	t := n.acts[top]
	n.pool = grow(n.pool, n.Channels*count)
	for c := range n.Channels {
		for b := range count {
			sum := 0.0
			for _, v := range t[c*m+b*hw:][:hw] {
				sum += v
			}
			n.pool[c*count+b] = sum / float64(hw)
		}
	}
	n.hid = n.hidden.forward(n.pool, count, n.hid)
	relu(n.hid)
	n.value = n.out.forward(n.hid, count, n.value)
	n.logits, n.cols, err = n.policy.forward(ctx, t, cs, n.logits, n.cols)
	return err
}

// backward adds to the gradients those of a loss whose derivatives with
// respect to the values are dv (N) and to the logits dl (4 × N·H·W), after
// a forward pass that kept its activations. dv and dl are overwritten. It
// stops between layers and chunks with ctx's error once ctx is done, the
// gradients then incomplete.
func (n *Net) backward(ctx context.Context, dv, dl []float64) error {
	count, h, w := n.s.n, n.s.h, n.s.w
	hw, m := h*w, n.s.cols()
	cs := shape{c: n.Channels, n: count, h: h, w: w}
	n.dhid = grow(n.dhid, n.Hidden*count)
	dhid := n.dhid
	n.out.backward(n.hid, count, dv, dhid)
	reluBack(n.hid, dhid)
	n.dpool = grow(n.dpool, n.Channels*count)
	dpool := n.dpool
	n.hidden.backward(n.pool, count, dhid, dpool)

	top := n.acts[n.Blocks]
	n.da = grow(n.da, n.Channels*m)
	da := n.da // the policy head's backward writes all of it
	var err error
	if n.cols, n.tmp, err = n.policy.backward(ctx, top, cs, dl, da, n.cols, n.tmp); err != nil {
		return err
	}
	for c := range n.Channels {
		for b := range count {
			g := dpool[c*count+b] / float64(hw)
			row := da[c*m+b*hw:][:hw]
			for i := range row {
				row[i] += g
			}
		}
	}
	n.dinner, n.dx = grow(n.dinner, n.Channels*m), grow(n.dx, n.Channels*m)
	dinner, dx := n.dinner, n.dx // the 3×3 convolutions' backward clears them
	for i := n.Blocks - 1; i >= 0; i-- {
		b := n.blocks[i]
		reluBack(n.acts[i+1], da) // through the block's final ReLU
		if n.cols, n.tmp, err = b[1].backward(ctx, n.inner[i], cs, da, dinner, n.cols, n.tmp); err != nil {
			return err
		}
		reluBack(n.inner[i], dinner)
		if n.cols, n.tmp, err = b[0].backward(ctx, n.acts[i], cs, dinner, dx, n.cols, n.tmp); err != nil {
			return err
		}
		for j := range da {
			da[j] += dx[j] // the skip connection
		}
	}
	reluBack(n.acts[0], da)
	es := shape{c: n.Embed, n: count, h: h, w: w}
	n.de = grow(n.de, n.Embed*m)
	de := n.de
	if n.cols, n.tmp, err = n.stem.backward(ctx, n.e, es, da, de, n.cols, n.tmp); err != nil {
		return err
	}
	n.cols, n.tmp, err = n.embed.backward(ctx, n.x0, n.s, de, nil, n.cols, n.tmp)
	return err
}

// Values computes the value of each of count boards of h×w squares whose
// planes lie one board after the other in in, into out (grown as needed).
// It stops between layers and chunks with ctx's error once ctx is done.
func (n *Net) Values(ctx context.Context, in []float64, count, h, w int, out []float64) ([]float64, error) {
	if err := n.checkBatch(in, count, h, w); err != nil {
		return out, err
	}
	if err := n.forward(ctx, in, count, h, w, false); err != nil {
		return out, err
	}
	out = append(out[:0], n.value...)
	return out, nil
}

// Evaluate computes, for each of count boards of h×w squares whose planes
// lie one board after the other in in, its value into values and its
// policy logits into logits (both grown as needed): board b's logit of a
// push in direction d from square (x, y) is logits[b·4·H·W + d·H·W +
// y·W + x], the index Sample.Legal uses, plus b·4·H·W. It stops between
// layers and chunks with ctx's error once ctx is done.
func (n *Net) Evaluate(ctx context.Context, in []float64, count, h, w int, values, logits []float64) ([]float64, []float64, error) {
	if err := n.checkBatch(in, count, h, w); err != nil {
		return values, logits, err
	}
	if err := n.forward(ctx, in, count, h, w, false); err != nil {
		return values, logits, err
	}
	values = append(values[:0], n.value...)
	hw, m := h*w, n.s.cols()
	logits = grow(logits, 4*m)
	for b := range count {
		for d := range 4 {
			copy(logits[(b*4+d)*hw:][:hw], n.logits[d*m+b*hw:][:hw])
		}
	}
	return values, logits, nil
}

// Sample is one training example: a board's planes and its targets.
type Sample struct {
	Planes []float64 // Planes·H·W values, plane-major
	Value  float64   // the value target
	// Legal lists the logits of the legal pushes (d·H·W + y·W + x) and
	// Policy their target probabilities; a sample without Legal has no
	// policy target.
	Legal  []int32
	Policy []float64
}

// loss runs the batch forward and returns the losses with their
// derivatives with respect to the values and the logits.
func (n *Net) loss(ctx context.Context, batch []Sample, h, w int) (value, policy float64, dv, dl []float64, err error) {
	hw := h * w
	in := grow(n.in, len(batch)*n.Planes*hw)[:0]
	for i, s := range batch {
		if len(s.Planes) != n.Planes*hw {
			return 0, 0, nil, nil, fmt.Errorf("nn: sample %d has %d plane values, want %d", i, len(s.Planes), n.Planes*hw)
		}
		if len(s.Legal) != len(s.Policy) {
			return 0, 0, nil, nil, fmt.Errorf("nn: sample %d has %d legal pushes and %d probabilities", i, len(s.Legal), len(s.Policy))
		}
		for _, l := range s.Legal {
			if l < 0 || int(l) >= 4*hw {
				return 0, 0, nil, nil, fmt.Errorf("nn: sample %d: logit %d outside 0..%d", i, l, 4*hw-1)
			}
		}
		in = append(in, s.Planes...)
	}
	n.in = in
	if err := n.checkBatch(in, len(batch), h, w); err != nil {
		return 0, 0, nil, nil, err
	}
	if err := n.forward(ctx, in, len(batch), h, w, true); err != nil {
		return 0, 0, nil, nil, err
	}
	count, m := len(batch), n.s.cols()
	n.dv = grow(n.dv, count)
	dv = n.dv
	for i, s := range batch {
		d := n.value[i] - s.Value
		value += d * d
		dv[i] = 2 * d / float64(count)
	}
	value /= float64(count)
	n.dl = grow(n.dl, 4*m)
	dl = n.dl
	clear(dl) // only the legal pushes' logits get a derivative
	withPolicy := 0
	for _, s := range batch {
		if len(s.Legal) > 0 {
			withPolicy++
		}
	}
	p := n.prob
	for i, s := range batch {
		if len(s.Legal) == 0 {
			continue
		}
		at := func(l int32) int { return int(l)/hw*m + i*hw + int(l)%hw }
		top := math.Inf(-1)
		for _, l := range s.Legal {
			top = max(top, n.logits[at(l)])
		}
		p = grow(p, len(s.Legal))
		sum := 0.0
		for j, l := range s.Legal {
			p[j] = math.Exp(n.logits[at(l)] - top)
			sum += p[j]
		}
		for j, l := range s.Legal {
			q := p[j] / sum
			if s.Policy[j] > 0 {
				policy -= s.Policy[j] * math.Log(max(q, 1e-300))
			}
			dl[at(l)] = (q - s.Policy[j]) / float64(withPolicy)
		}
	}
	n.prob = p
	if withPolicy > 0 {
		policy /= float64(withPolicy)
	}
	return value, policy, dv, dl, nil
}

// zeroGrad clears every gradient (allocating them on first use).
func (n *Net) zeroGrad() {
	for _, p := range n.params {
		p.zeroGrad()
	}
}

// Adam's settings: 003 §3's learning rate, betas and weight decay.
const (
	LearningRate = 0.001
	Beta1        = 0.9
	Beta2        = 0.999
	WeightDecay  = 0.01
	adamEpsilon  = 1e-8
)

// Train takes one AdamW step on the batch's summed loss (value plus
// policy) and returns the two losses before the step. Once ctx is done it
// stops between layers and chunks with ctx's error and leaves the weights
// as they were, so that a long step on a big network ends promptly.
func (n *Net) Train(ctx context.Context, batch []Sample, h, w int) (value, policy float64, err error) {
	value, policy, dv, dl, err := n.loss(ctx, batch, h, w)
	if err != nil {
		return 0, 0, err
	}
	n.zeroGrad()
	if err := n.backward(ctx, dv, dl); err != nil {
		return 0, 0, err
	}
	n.step++
	c1 := 1 - math.Pow(Beta1, float64(n.step))
	c2 := 1 - math.Pow(Beta2, float64(n.step))
	for _, p := range n.params {
		for i, g := range p.g {
			p.m[i] = Beta1*p.m[i] + (1-Beta1)*g
			p.v[i] = Beta2*p.v[i] + (1-Beta2)*g*g
			p.w[i] -= LearningRate * (p.m[i]/c1/(math.Sqrt(p.v[i]/c2)+adamEpsilon) + WeightDecay*p.w[i])
		}
	}
	return value, policy, nil
}
