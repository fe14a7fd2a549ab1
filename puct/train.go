package puct

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"soko/distance"
	"soko/generate"
	"soko/internal/grid"
	"soko/internal/parallel"
	"soko/level"
	"soko/nn"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

// TrainOptions control a training run (see the package comment).
type TrainOptions struct {
	Net  nn.Config // the network's shape (Planes is set by Train)
	Seed uint64    // the levels, the weights, the noise and the batches
	// Sets are the generator's configurations, taken in turn: level k of
	// the run (the warm start's first, then the rounds' games) is level
	// k/len(Sets)+1 of set k mod len(Sets), whose seed is replaced by
	// Seed + its index. Default: the distance model's (distance.DefaultSets).
	Sets       []generate.Config
	WarmLevels int // levels of the warm start (0: none)
	WarmSteps  int // training steps on the warm start's samples
	Rounds     int // self-play rounds
	Games      int // self-play episodes (levels) a round
	Sims       int // simulations of the search before each push
	Steps      int // training steps after each round
	Batch      int // samples a step
	Window     int // rounds whose samples the steps draw from
	Workers    int // goroutines that play (0: 1); the model does not depend on them
	// Minutes, when positive, ends training after the first round that
	// ends past it: then the model depends on the rounds run, which the
	// report gives.
	Minutes float64
	// Progress, when not nil, is called after the warm start (round 0)
	// and after each round.
	Progress func(RoundReport)
}

// Defaults of TrainOptions.
const (
	DefaultWarmLevels = 1000
	DefaultWarmSteps  = 1500
	DefaultRounds     = 10
	DefaultGames      = 100
	DefaultSims       = 32
	DefaultSteps      = 300
	DefaultBatch      = 64
	DefaultWindow     = 4
)

// Self-play's settings, AlphaZero's for chess and Go (Silver et al. 2018)
// but for the moves drawn in proportion to the visits: a Sokoban episode
// is short, so a few pushes of exploration suffice.
const (
	dirichletAlpha = 0.3
	noiseShare     = 0.25
	explorePushes  = 4 // pushes drawn in proportion to the visits
)

// checkNodes is astar's budget for a warm-start level's optimal path: the
// generator's check budget, within which it measured the level.
const checkNodes = 20000

// RoundReport describes the warm start (Round 0) or one self-play round.
type RoundReport struct {
	Round                int
	Games, Solved        int     // episodes played and solved
	Samples              int     // samples the round added
	Steps                int     // training steps run after it
	Value, Policy        float64 // mean losses of those steps
	Evaluated            int64   // network evaluations of the round's searches
	Elapsed, PlayElapsed time.Duration
}

// interruptedRound returns rep with round r, cut short in its fit, when r
// made training steps: the model has them, and a caller saving what was
// trained so far must know.
func interruptedRound(rep TrainReport, r RoundReport) TrainReport {
	if r.Steps > 0 {
		rep.Rounds = append(rep.Rounds, r)
	}
	return rep
}

// TrainReport describes a finished training run.
type TrainReport struct {
	Rounds  []RoundReport
	Elapsed time.Duration
}

// withDefaults fills the zero fields of o.
func (o TrainOptions) withDefaults() TrainOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.WarmSteps, DefaultWarmSteps)
	def(&o.Games, DefaultGames)
	def(&o.Sims, DefaultSims)
	def(&o.Steps, DefaultSteps)
	def(&o.Batch, DefaultBatch)
	def(&o.Window, DefaultWindow)
	def(&o.Workers, 1)
	if len(o.Sets) == 0 {
		o.Sets = distance.DefaultSets()
	}
	o.Net.Planes = planes
	return o
}

// Train trains a model from scratch: the warm start, then o.Rounds rounds
// of self-play and training. When ctx ends it returns the model of the
// last whole training step with ctx's error.
func Train(ctx context.Context, o TrainOptions) (*Model, TrainReport, error) {
	var rep TrainReport
	o = o.withDefaults()
	start := time.Now()
	net, err := nn.New(o.Net, o.Seed)
	if err != nil {
		return nil, rep, fmt.Errorf("puct: %w", err)
	}
	net.Meta = meta
	m := &Model{Net: net}
	h, w, err := size(o.Sets)
	if err != nil {
		return nil, rep, err
	}
	var window [][]nn.Sample // the samples of the last rounds, oldest first
	if o.WarmLevels > 0 {
		t0 := time.Now()
		samples, solved, err := collect(ctx, o, 0, o.WarmLevels, func(w *player, k int) ([]nn.Sample, bool, error) {
			return w.warm(ctx, o, k)
		})
		if err != nil {
			return m, rep, err
		}
		r := RoundReport{Games: o.WarmLevels, Solved: solved, Samples: len(samples), PlayElapsed: time.Since(t0)}
		window = append(window, samples)
		if err := fit(ctx, m, window, o.WarmSteps, h, w, o, 0, &r); err != nil {
			return m, interruptedRound(rep, r), err
		}
		r.Elapsed = time.Since(t0)
		rep.Rounds = append(rep.Rounds, r)
		if o.Progress != nil {
			o.Progress(r)
		}
	}
	for round := 1; round <= o.Rounds; round++ {
		if o.Minutes > 0 && time.Since(start).Minutes() >= o.Minutes {
			break
		}
		t0 := time.Now()
		r := RoundReport{Round: round, Games: o.Games}
		first := o.WarmLevels + (round-1)*o.Games
		var mu sync.Mutex
		samples, solved, err := collect(ctx, o, first, o.Games, func(w *player, k int) ([]nn.Sample, bool, error) {
			if w.model == nil {
				c, err := clone(m)
				if err != nil {
					return nil, false, err
				}
				w.model = c
			}
			s, solved, n, err := w.play(ctx, o, k)
			mu.Lock()
			r.Evaluated += n
			mu.Unlock()
			return s, solved, err
		})
		if err != nil {
			return m, rep, err
		}
		r.PlayElapsed = time.Since(t0)
		r.Samples, r.Solved = len(samples), solved
		window = append(window, samples)
		if len(window) > o.Window {
			window = window[1:]
		}
		if err := fit(ctx, m, window, o.Steps, h, w, o, round, &r); err != nil {
			return m, interruptedRound(rep, r), err
		}
		r.Elapsed = time.Since(t0)
		rep.Rounds = append(rep.Rounds, r)
		if o.Progress != nil {
			o.Progress(r)
		}
	}
	rep.Elapsed = time.Since(start)
	return m, rep, ctx.Err()
}

// player is one worker of a round: its copy of the round's network,
// made on its first game.
type player struct {
	model *Model
}

// collect runs job on levels first to first+count−1 on o.Workers
// goroutines, each with its own player, and returns their samples in
// level order and the number of levels job solved.
func collect(ctx context.Context, o TrainOptions, first, count int, job func(w *player, k int) ([]nn.Sample, bool, error)) ([]nn.Sample, int, error) {
	type result struct {
		samples []nn.Sample
		solved  bool
		err     error
	}
	out := make([]result, count)
	err := parallel.Run(ctx, count, o.Workers, func() *player { return &player{} }, func(w *player, i int) {
		s, solved, err := job(w, first+i)
		out[i] = result{s, solved, err}
	})
	if err != nil {
		return nil, 0, err
	}
	var all []nn.Sample
	solved := 0
	for _, r := range out {
		if r.err != nil {
			return nil, 0, r.err
		}
		all = append(all, r.samples...)
		if r.solved {
			solved++
		}
	}
	return all, solved, nil
}

// clone returns a copy of m's network, so that a worker can evaluate
// while others do.
func clone(m *Model) (*Model, error) {
	var buf bytes.Buffer
	if err := m.Net.Write(&buf); err != nil {
		return nil, err
	}
	net, err := nn.Read(&buf)
	if err != nil {
		return nil, err
	}
	return &Model{Net: net}, nil
}

// size returns the height and width of the levels of sets, which must
// all be of one size: a training batch holds boards of one size.
func size(sets []generate.Config) (int, int, error) {
	of := func(v int) int {
		if v == 0 {
			return 10 // generate's default, Boxoban's
		}
		return v
	}
	h, w := of(sets[0].Height), of(sets[0].Width)
	for _, s := range sets[1:] {
		if of(s.Height) != h || of(s.Width) != w {
			return 0, 0, errors.New("puct: the training sets' levels must all be of one size")
		}
	}
	return h, w, nil
}

// levelOf returns level k of the run.
func levelOf(ctx context.Context, o TrainOptions, k int) (*level.Level, error) {
	set := o.Sets[k%len(o.Sets)]
	set.Seed = o.Seed + uint64(k%len(o.Sets))
	g, err := generate.One(ctx, set, k/len(o.Sets)+1)
	if err != nil {
		return nil, err
	}
	return g.Level, nil
}

// sample returns the training sample of position p of board bd: its
// planes, the value target remaining pushes (DeadGap above the bound when
// remaining < 0), and the policy target policy over the pushes kids (none
// when policy is nil).
func sample(bd *board, p *sokoban.Position, remaining int, kids []sokoban.Push, policy []float64) (nn.Sample, bool) {
	h, ok := bd.Bound(p)
	if !ok {
		return nn.Sample{}, false
	}
	target := float64(DeadGap)
	if remaining >= 0 {
		target = float64(remaining - h)
	}
	s := nn.Sample{Planes: bd.Encode(nil, p, h), Value: target / scale}
	if policy != nil {
		for _, m := range kids {
			s.Legal = append(s.Legal, grid.Logit(bd.b, m))
		}
		s.Policy = policy
	}
	return s, true
}

// warm returns the samples of level k's push-optimal path: each
// position's remaining pushes and, as the policy target, its optimal push
// among the pushes the search keeps.
func (w *player) warm(ctx context.Context, o TrainOptions, k int) ([]nn.Sample, bool, error) {
	l, err := levelOf(ctx, o, k)
	if err != nil {
		return nil, false, err
	}
	res, err := search.AStar{}.Solve(ctx, l, solver.Options{Budget: solver.Budget{Nodes: checkNodes}})
	if err != nil {
		return nil, false, err
	}
	if res.Status != solver.Solved {
		return nil, false, ctx.Err() // no optimal path known: no samples
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, false, err
	}
	bd, err := newBoard(ctx, b)
	if err != nil {
		return nil, false, err
	}
	p := b.Start()
	var path []*sokoban.Position
	var pushes []sokoban.Push
	for _, mv := range res.Moves {
		to, push, ok := p.Step(mv.Dir)
		if !ok {
			return nil, false, fmt.Errorf("puct: %s: astar's solution does not replay", l.Name())
		}
		if push {
			path = append(path, p.Clone())
			m := sokoban.Push{Box: to, Dir: mv.Dir}
			pushes = append(pushes, m)
			p.Apply(m)
		} else {
			p.SetPlayer(to)
		}
	}
	var out []nn.Sample
	var kids []sokoban.Push
	for i, q := range path {
		kids = bd.Children(q, kids[:0])
		policy := make([]float64, len(kids))
		found := false
		for j, m := range kids {
			if m == pushes[i] {
				policy[j], found = 1, true
			}
		}
		if !found {
			policy = nil
		}
		if s, ok := sample(bd, q, len(path)-i, kids, policy); ok {
			out = append(out, s)
		}
	}
	return out, true, nil
}

// record is one position of an episode with its policy target.
type record struct {
	pos    *sokoban.Position
	kids   []sokoban.Push
	policy []float64
}

// play plays the self-play episode of level k and returns its samples,
// whether it was solved, and the network evaluations it made.
func (w *player) play(ctx context.Context, o TrainOptions, k int) ([]nn.Sample, bool, int64, error) {
	l, err := levelOf(ctx, o, k)
	if err != nil {
		return nil, false, 0, err
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, false, 0, err
	}
	bd, err := newBoard(ctx, b)
	if err != nil {
		return nil, false, 0, err
	}
	rng := rand.New(rand.NewPCG(o.Seed, uint64(k)))
	p := b.Start()
	h0, _ := bd.Bound(p)
	limit := 2*h0 + 20
	history := []*sokoban.Position{p.Clone()}
	var recs []record
	var evaluated int64
	solved := false
	for len(recs) < limit && !solved {
		s := newSearch(ctx, bd, w.model, DefaultC, p)
		for _, q := range history {
			s.exclude(q)
		}
		out := s.Iterate()
		if out == Going && s.at(0).count > 0 {
			s.noise(rng, dirichletAlpha, noiseShare)
		}
		for i := 1; i < o.Sims && out == Going; i++ {
			out = s.Iterate()
		}
		evaluated += s.Evaluated
		if s.Stopped != nil {
			return nil, false, evaluated, s.Stopped
		}
		if out == Exhausted {
			break
		}
		if out == Found {
			// The search's own solution: each position on it, the
			// root's included, with its push as the policy target.
			q := p.Clone()
			for _, m := range s.solution() {
				kids := bd.Children(q, nil)
				policy := make([]float64, len(kids))
				for j, c := range kids {
					if c == m {
						policy[j] = 1
					}
				}
				recs = append(recs, record{pos: q.Clone(), kids: kids, policy: policy})
				q.Apply(m)
			}
			solved = true
			break
		}
		root := s.at(0)
		kids := make([]sokoban.Push, root.count)
		policy := make([]float64, root.count)
		total := 0.0
		for i := range kids {
			c := s.at(root.first + int32(i))
			kids[i] = c.push
			if !c.dead {
				policy[i] = float64(c.n)
				total += policy[i]
			}
		}
		if total == 0 {
			break
		}
		pick := -1
		if len(recs) < explorePushes {
			u := rng.Float64() * total
			for i, v := range policy {
				if u -= v; u < 0 && v > 0 {
					pick = i
					break
				}
			}
		}
		if pick < 0 {
			for i, v := range policy {
				if v > 0 && (pick < 0 || v > policy[pick]) {
					pick = i
				}
			}
		}
		for i := range policy {
			policy[i] /= total
		}
		recs = append(recs, record{pos: p.Clone(), kids: kids, policy: policy})
		p.Apply(kids[pick])
		history = append(history, p.Clone())
	}
	var out []nn.Sample
	for i, r := range recs {
		remaining := -1
		if solved {
			remaining = len(recs) - i
		}
		if s, ok := sample(bd, r.pos, remaining, r.kids, r.policy); ok {
			out = append(out, s)
		}
	}
	return out, solved, evaluated, nil
}

// fit takes steps AdamW steps on batches drawn from the window's samples
// and adds their mean losses to r.
func fit(ctx context.Context, m *Model, window [][]nn.Sample, steps, h, w int, o TrainOptions, round int, r *RoundReport) error {
	var pool []nn.Sample
	for _, w := range window {
		pool = append(pool, w...)
	}
	if len(pool) == 0 {
		return errors.New("puct: no samples to train on")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x70756374<<8|uint64(round)))
	batch := make([]nn.Sample, o.Batch)
	var value, policy float64
	for range steps {
		for i := range batch {
			batch[i] = pool[rng.IntN(len(pool))]
		}
		v, p, err := m.Net.Train(ctx, batch, h, w)
		if err != nil {
			return err
		}
		value += v
		policy += p
		r.Steps++
	}
	if r.Steps > 0 {
		r.Value, r.Policy = value/float64(r.Steps), policy/float64(r.Steps)
	}
	return nil
}
