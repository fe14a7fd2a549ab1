package distance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"soko/internal/grid"
	"soko/nn"
	"soko/sokoban"
)

// TrainOptions control a training run.
type TrainOptions struct {
	Net   nn.Config // the network's shape (Planes is set by Train)
	Seed  uint64    // the weights and the batches
	Steps int       // AdamW steps
	Batch int       // examples per step
	// Progress, when not nil, is called every ProgressEvery steps with the
	// steps done and the mean loss since the last call.
	Progress func(step int, loss float64)
}

// Defaults of TrainOptions.
const (
	DefaultSteps  = 6000
	DefaultBatch  = 64
	ProgressEvery = 200
)

// TrainReport describes a finished training run.
type TrainReport struct {
	Steps   int
	Trained int64 // examples in the steps' batches
	Elapsed time.Duration
	Curve   []float64 // mean loss of every ProgressEvery steps
}

// Train fits a network to the dataset's examples: squared error of the
// gap above the bound (Example.Target, in tenths of scale), AdamW with
// package nn's settings, on batches drawn at random. Equal datasets,
// options and seeds give the same model, byte for byte. When ctx ends it
// returns the model of the last whole step with ctx's error.
func Train(ctx context.Context, ds *Dataset, opts TrainOptions) (*Model, TrainReport, error) {
	var rep TrainReport
	if len(ds.Examples) == 0 {
		return nil, rep, errors.New("distance: no examples to train on")
	}
	if opts.Steps <= 0 {
		opts.Steps = DefaultSteps
	}
	if opts.Batch <= 0 {
		opts.Batch = DefaultBatch
	}
	opts.Net.Planes = planes
	net, err := nn.New(opts.Net, opts.Seed)
	if err != nil {
		return nil, rep, fmt.Errorf("distance: %w", err)
	}
	net.Meta = meta
	m := &Model{Net: net}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x64697374))
	pos := make([]*sokoban.Position, len(ds.boards))
	start := time.Now()
	sum, count := 0.0, 0
	for step := range opts.Steps {
		batch, h, w := drawBatch(ds, pos, opts.Batch, rng)
		loss, _, err := net.Train(ctx, batch, h, w)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, rep, fmt.Errorf("distance: %w", err)
		}
		rep.Steps++
		rep.Trained += int64(len(batch))
		sum += loss
		count++
		if (step+1)%ProgressEvery == 0 {
			rep.Curve = append(rep.Curve, sum/float64(count))
			if opts.Progress != nil {
				opts.Progress(step+1, sum/float64(count))
			}
			sum, count = 0, 0
		}
	}
	rep.Elapsed = time.Since(start)
	return m, rep, ctx.Err()
}

// drawBatch draws up to n examples at random, all of one board size
// (grid.DrawBatch), and builds their planes.
func drawBatch(ds *Dataset, pos []*sokoban.Position, n int, rng *rand.Rand) ([]nn.Sample, int, int) {
	items, h, w := grid.DrawBatch(rng, len(ds.Examples), n, func(i int) *sokoban.Board { return ds.boards[ds.Examples[i].Board].b })
	batch := make([]nn.Sample, 0, len(items))
	for _, i := range items {
		x := ds.Examples[i]
		bd := ds.boards[x.Board]
		p := pos[x.Board]
		if p == nil {
			p = bd.b.Start()
			pos[x.Board] = p
		}
		p.Unpack(x.Key)
		batch = append(batch, nn.Sample{Planes: bd.Encode(nil, p, x.Bound), Value: x.Target() / scale})
	}
	return batch, h, w
}
