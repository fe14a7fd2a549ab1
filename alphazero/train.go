package alphazero

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"soko/internal/grid"
	"soko/level"
	"soko/mcts"
	"soko/nn"
	"soko/sokoban"
)

// DefaultConfig is the network soko train builds: 003 §3's embedding of 16
// with a tower of 2 blocks of 16 channels instead of 10 blocks of 64. On
// two shared CPU cores the reference network takes about 20 ms to evaluate
// one 10×10 board and trains on about 9 samples a second, so five minutes
// of training would see under 3,000 samples and a search of a few thousand
// iterations would take minutes; this one evaluates a board in about
// 0.3 ms and trains on about 350 samples a second (BenchmarkValues and
// BenchmarkTrain in package nn, on a loaded machine).
func DefaultConfig() nn.Config {
	return nn.Config{Planes: planes, Embed: 16, Channels: 16, Blocks: 2, Hidden: 32}
}

// Options control a training run.
type Options struct {
	Net        nn.Config     // the network's shape (Planes is set by Train)
	Seed       uint64        // for the weights, the searches and the batches
	Time       time.Duration // stop after this long (0: no limit)
	Rounds     int           // stop after this many rounds (0: no limit)
	Iterations int           // MCTS iterations per search (one search per round)
	Steps      int           // training steps per round
	Batch      int           // samples per training step
	Buffer     int           // the most recent samples kept for training
	C          float64       // UCT constant of the searches
	// Memory, when positive, bounds what training holds (see trainBytes):
	// a network that cannot train within it is refused before any work,
	// and each search stops growing its tree within what the rest leaves.
	Memory int64
	// Progress, when not nil, is called after every round.
	Progress func(Progress)
}

// Defaults for Options fields left zero.
const (
	DefaultIterations = 2000
	DefaultSteps      = 32
	DefaultBatch      = 64
	DefaultBuffer     = 50000
)

// Progress reports a finished round.
type Progress struct {
	Round, Rounds int           // rounds done, and the limit (0: none)
	Elapsed, Time time.Duration // time spent, and the limit (0: none)
	Samples       int64         // samples harvested so far
	Solved        int           // searches that reached a solution
	Value, Policy float64       // mean losses of the round's steps
}

// Point is one round of the loss curve.
type Point struct {
	Step          int     // training steps done at the end of the round
	Samples       int64   // samples harvested so far
	Value, Policy float64 // mean losses of the round's steps
}

// Report describes a finished training run.
type Report struct {
	Rounds   int
	Steps    int
	Samples  int64 // samples harvested
	Trained  int64 // samples in the training steps' batches
	Searches int   // searches run
	Solved   int   // searches that reached a solution
	Elapsed  time.Duration
	Train    time.Duration // time spent in training steps
	Curve    []Point
}

// ErrMemory is wrapped by Train's error when the network cannot train
// within Options.Memory.
var ErrMemory = errors.New("too little memory for the network")

// trainBytes returns the memory training holds on boards besides the
// searches: the network with its gradients, Adam's moments and working
// memory for the largest batch, the batch's planes, the samples (a key
// and a few pushes of policy target a sample, a generous guess) of the
// buffer and of the next round's harvest, up to twice the buffer's count,
// and the boards.
func trainBytes(boards []*sokoban.Board, opts Options) int64 {
	var most, boardBytes int64
	key := 0
	for _, b := range boards {
		hw := b.Width * b.Level.Height
		count := min(opts.Batch, max(1, grid.MaxSquares/hw))
		most = max(most, opts.Net.Bytes(count, hw, true)+8*int64(planes*hw*count))
		key = max(key, b.KeySize())
		boardBytes += b.Bytes()
	}
	const sampleSize = 96 // the sample struct
	return most + 3*int64(opts.Buffer)*int64(sampleSize+key+12*4) + boardBytes
}

// roundSamples are the samples of one round's search.
type roundSamples struct {
	samples []sample
	dropped int // samples harvested before these and dropped (see harvest)
	solved  bool
	err     error
}

// Train trains a network on search trees of the given levels (003 §2.4,
// §2.5): round r runs one MCTS search with the plain heuristic on level
// r mod len(levels), harvests its tree's samples into a buffer of the most
// recent ones, and takes opts.Steps AdamW steps on random batches of it.
// Searches run on their own goroutine one round ahead of training. It stops
// after opts.Rounds rounds or opts.Time, whichever comes first, or when ctx
// is cancelled (then it returns the network so far and ctx's error); the
// clock and ctx are looked at between training steps and inside them, so
// that a long step on a big network ends promptly, leaving the weights of
// the last whole step. A network that cannot train within opts.Memory is
// an error wrapping ErrMemory.
func Train(ctx context.Context, levels []*level.Level, opts Options) (*nn.Net, Report, error) {
	opts, boards, searchBytes, err := prepare(levels, opts)
	if err != nil {
		return nil, Report{}, err
	}
	net, err := nn.New(opts.Net, opts.Seed)
	if err != nil {
		return nil, Report{}, fmt.Errorf("alphazero: %w", err)
	}
	net.Meta = meta

	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opts.Time > 0 {
		ctx, cancel = context.WithTimeout(ctx, opts.Time)
		defer cancel()
	}
	rounds := searchAhead(ctx, boards, opts, searchBytes)
	t := newTrainer(net, boards, opts)
	rep := &t.rep
	for res := range rounds {
		if res.err != nil {
			break // the context ended during the search
		}
		rep.Searches++
		if res.solved {
			rep.Solved++
		}
		t.keep(res)
		t0 := time.Now()
		value, policy, steps, err := t.round(ctx)
		if err != nil {
			return nil, *rep, err
		}
		rep.Train += time.Since(t0)
		rep.Rounds++
		rep.Steps += steps
		if steps > 0 {
			rep.Curve = append(rep.Curve, Point{Step: rep.Steps, Samples: rep.Samples, Value: value, Policy: policy})
		}
		if opts.Progress != nil {
			opts.Progress(Progress{Round: rep.Rounds, Rounds: opts.Rounds, Elapsed: time.Since(start), Time: opts.Time,
				Samples: rep.Samples, Solved: rep.Solved, Value: value, Policy: policy})
		}
		if ctx.Err() != nil {
			break
		}
	}
	rep.Elapsed = time.Since(start)
	return net, *rep, parent.Err()
}

// prepare checks Train's levels and options and fills in the defaults. It
// returns the options, the boards to train on (solvable and not solved at
// the start), and the memory each search may take (0: no limit).
func prepare(levels []*level.Level, opts Options) (Options, []*sokoban.Board, int64, error) {
	if len(levels) == 0 {
		return opts, nil, 0, errors.New("alphazero: no levels to train on")
	}
	if opts.Time <= 0 && opts.Rounds <= 0 {
		return opts, nil, 0, errors.New("alphazero: training needs a time limit or a number of rounds")
	}
	opts.Net.Planes = planes
	setDefault(&opts.Iterations, DefaultIterations)
	setDefault(&opts.Steps, DefaultSteps)
	setDefault(&opts.Batch, DefaultBatch)
	setDefault(&opts.Buffer, DefaultBuffer)
	if opts.C == 0 {
		opts.C = mcts.DefaultPushC
	}
	boards := make([]*sokoban.Board, 0, len(levels))
	for _, l := range levels {
		b, err := sokoban.NewBoard(l)
		if err != nil {
			return opts, nil, 0, fmt.Errorf("alphazero: %w", err)
		}
		if b.Impossible == "" && !b.Start().Solved() {
			boards = append(boards, b)
		}
	}
	if len(boards) == 0 {
		return opts, nil, 0, errors.New("alphazero: no level to train on is both solvable and unsolved")
	}
	if err := opts.Net.Check(); err != nil {
		return opts, nil, 0, fmt.Errorf("alphazero: %w", err)
	}
	need := trainBytes(boards, opts)
	if opts.Memory > 0 && need > opts.Memory {
		c := opts.Net
		return opts, nil, 0, fmt.Errorf("alphazero: %w: training embed %d, %d blocks of %d channels, hidden %d on these levels takes about %d MiB, over the limit of %d MiB",
			ErrMemory, c.Embed, c.Blocks, c.Channels, c.Hidden, need>>20, opts.Memory>>20)
	}
	searchBytes := int64(0) // no limit
	if opts.Memory > 0 {
		searchBytes = max(1, opts.Memory-need)
	}
	return opts, boards, searchBytes, nil
}

// searchAhead runs the rounds' searches on their own goroutine, one round
// ahead of training, until opts.Rounds or ctx's end.
func searchAhead(ctx context.Context, boards []*sokoban.Board, opts Options, searchBytes int64) <-chan roundSamples {
	rounds := make(chan roundSamples, 1)
	go func() {
		defer close(rounds)
		for r := 0; opts.Rounds == 0 || r < opts.Rounds; r++ {
			res := search(ctx, boards, r, opts, searchBytes)
			select {
			case rounds <- res:
			case <-ctx.Done():
				return
			}
		}
	}()
	return rounds
}

// trainer is Train's side of the loop: the network, a ring buffer of the
// most recent samples, and what drawing batches takes.
type trainer struct {
	net    *nn.Net
	opts   Options
	boards []*sokoban.Board
	pos    []*sokoban.Position // a working position per board
	rng    *rand.Rand          // batches
	buf    []sample
	next   int // the oldest sample once the buffer is full
	rep    Report
}

func newTrainer(net *nn.Net, boards []*sokoban.Board, opts Options) *trainer {
	t := &trainer{net: net, opts: opts, boards: boards, pos: make([]*sokoban.Position, len(boards)),
		rng: rand.New(rand.NewPCG(opts.Seed, 0x7472)), buf: make([]sample, 0, opts.Buffer)}
	for i, b := range boards {
		t.pos[i] = b.Start()
	}
	return t
}

// keep puts a round's samples in the buffer. The samples the harvest
// dropped pass through it as blanks that the kept ones overwrite, so that
// every sample lands where it would have had the harvest kept them all.
func (t *trainer) keep(res roundSamples) {
	for i := range res.dropped + len(res.samples) {
		var s sample
		if i >= res.dropped {
			s = res.samples[i-res.dropped]
		}
		if len(t.buf) < t.opts.Buffer {
			t.buf = append(t.buf, s)
		} else {
			t.buf[t.next] = s
			t.next = (t.next + 1) % t.opts.Buffer
		}
	}
	t.rep.Samples += int64(res.dropped + len(res.samples))
}

// round takes a round's training steps on random batches of the buffer
// and returns their mean losses and number. It stops early when ctx ends,
// between steps or inside one (the weights are then the last whole
// step's).
func (t *trainer) round(ctx context.Context) (value, policy float64, steps int, err error) {
	for range t.opts.Steps {
		if ctx.Err() != nil {
			break // the time limit holds between steps too
		}
		batch, h, w := drawBatch(t.buf, t.boards, t.pos, t.opts.Batch, t.rng)
		if len(batch) == 0 {
			break
		}
		v, p, err := t.net.Train(ctx, batch, h, w)
		if err != nil && ctx.Err() != nil {
			break // the step stopped part way; the weights are the last step's
		}
		if err != nil {
			return 0, 0, 0, fmt.Errorf("alphazero: %w", err)
		}
		value += v
		policy += p
		steps++
		t.rep.Trained += int64(len(batch))
	}
	if steps > 0 {
		value /= float64(steps)
		policy /= float64(steps)
	}
	return value, policy, steps, nil
}

func setDefault(v *int, def int) {
	if *v <= 0 {
		*v = def
	}
}

// search runs round r's MCTS with the plain heuristic on its level and
// harvests the tree. With a positive limit it stops growing the tree when
// the tree and its states (a packed key and a hash table's slot each, a
// guess) take more than limit bytes.
func search(ctx context.Context, boards []*sokoban.Board, r int, opts Options, limit int64) roundSamples {
	bi := r % len(boards)
	b := boards[bi]
	v := mcts.NewValueSearch(b, nil, opts.C, opts.Seed+uint64(r))
	solved := false
	for i := 0; i < opts.Iterations; i++ {
		if i%64 == 0 && ctx.Err() != nil {
			return roundSamples{err: ctx.Err()}
		}
		if limit > 0 && v.Tree.Bytes()+int64(v.Tree.Len())*int64(b.KeySize()+32) > limit {
			break
		}
		out := v.Iterate()
		if out == mcts.Found {
			solved = true
			break
		}
		if out == mcts.Exhausted {
			break
		}
	}
	samples, dropped, err := harvest(ctx, v, b, bi, opts.Buffer)
	if err != nil {
		return roundSamples{err: err}
	}
	return roundSamples{samples: samples, dropped: dropped, solved: solved}
}

// drawBatch draws up to n samples at random from buf, all of one board
// size (grid.DrawBatch), and builds their planes.
func drawBatch(buf []sample, boards []*sokoban.Board, pos []*sokoban.Position, n int, rng *rand.Rand) ([]nn.Sample, int, int) {
	if len(buf) == 0 {
		return nil, 0, 0
	}
	items, h, w := grid.DrawBatch(rng, len(buf), n, func(i int) *sokoban.Board { return boards[buf[i].board] })
	batch := make([]nn.Sample, 0, len(items))
	for _, i := range items {
		s := buf[i]
		p := pos[s.board]
		p.Unpack(s.key)
		batch = append(batch, nn.Sample{Planes: encode(nil, p, s.target), Value: s.steps / scale, Legal: s.legal, Policy: s.policy})
	}
	return batch, h, w
}
