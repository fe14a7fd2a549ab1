package distance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"soko/generate"
	"soko/internal/parallel"
	"soko/level"
	"soko/search"
	"soko/sokoban"
	"soko/solver"
)

// DataConfig says which levels a dataset is made of and how they are
// labelled.
type DataConfig struct {
	// Sets are the generator's configurations, taken in turn: level i of
	// the dataset is level i/len(Sets)+1 of set i mod len(Sets), with the
	// set's seed replaced by Seed + its index.
	Sets  []generate.Config
	Count int    // levels in all
	Seed  uint64 // the levels and the excursions
	// LabelNodes is the astar budget (expansions) that labels one
	// position; a position it leaves unsolved is not an example.
	LabelNodes int64
	// PathNodes is the astar budget that finds a level's optimal path
	// (0: ten times LabelNodes); a level it leaves unsolved gives none.
	PathNodes int64
	// Excursions is how many random excursions of two to four pushes
	// leave each position of the optimal path.
	Excursions int
	Workers    int // goroutines (0: 1); the dataset does not depend on them
}

// Defaults of DataConfig.
const (
	DefaultLabelNodes = 2000
	DefaultExcursions = 1
)

// DefaultSets are the training levels' configurations: Boxoban's 10×10
// four-box levels as soko generate makes them, one in three with no
// difficulty band (like Boxoban unfiltered) and two in three in the
// medium-like band of docs/learning.md (at least 10 optimal pushes and 22
// astar expansions).
func DefaultSets() []generate.Config {
	plain := generate.Config{}
	medium := generate.Config{MinPushes: 10, MinExpanded: 22}
	return []generate.Config{plain, medium, medium}
}

// Example is one labelled position.
type Example struct {
	Board  int32  // index in Dataset.Boards
	Key    []byte // the position, packed exactly (Position.PackExact)
	Bound  int    // its pull-distance matching bound
	Pushes int    // its optimal pushes to the solution; -1 when dead
	OnPath bool   // on the level's optimal path
	Found  string // how the label was found: "path", "astar", "detector"
}

// Dead reports whether the example's position is unsolvable.
func (x Example) Dead() bool { return x.Pushes < 0 }

// Target is the example's target in pushes above its bound.
func (x Example) Target() float64 {
	if x.Dead() {
		return DeadGap
	}
	return float64(x.Pushes - x.Bound)
}

// Dataset is the examples of a set of levels.
type Dataset struct {
	Levels   []*level.Level
	boards   []*Board
	Examples []Example
	Skipped  int // positions left out: astar ran out of budget on them
	Unsolved int // levels astar did not solve within the generator's check budget
}

// levelData is what one level contributes.
type levelData struct {
	l        *level.Level
	bd       *Board
	examples []Example
	skipped  int
	unsolved bool
	err      error
}

// Build makes the dataset of cfg.
func Build(ctx context.Context, cfg DataConfig) (*Dataset, error) {
	if len(cfg.Sets) == 0 || cfg.Count <= 0 {
		return nil, errors.New("distance: a dataset needs levels")
	}
	if cfg.LabelNodes <= 0 {
		cfg.LabelNodes = DefaultLabelNodes
	}
	if cfg.PathNodes <= 0 {
		cfg.PathNodes = 10 * cfg.LabelNodes
	}
	out := make([]levelData, cfg.Count)
	if err := parallel.Each(ctx, cfg.Count, cfg.Workers, func(i int) { out[i] = makeLevel(ctx, cfg, i) }); err != nil {
		return nil, err
	}
	ds := &Dataset{}
	for _, d := range out {
		if d.err != nil {
			return nil, d.err
		}
		if d.unsolved {
			ds.Unsolved++
			continue
		}
		bi := int32(len(ds.boards))
		ds.Levels = append(ds.Levels, d.l)
		ds.boards = append(ds.boards, d.bd)
		for _, x := range d.examples {
			x.Board = bi
			ds.Examples = append(ds.Examples, x)
		}
		ds.Skipped += d.skipped
	}
	return ds, nil
}

// makeLevel generates and labels level i of cfg.
func makeLevel(ctx context.Context, cfg DataConfig, i int) levelData {
	set := cfg.Sets[i%len(cfg.Sets)]
	set.Seed = cfg.Seed + uint64(i%len(cfg.Sets))
	g, err := generate.One(ctx, set, i/len(cfg.Sets)+1)
	if err != nil {
		return levelData{err: err}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)<<1|1))
	d := label(ctx, g.Level, cfg.PathNodes, cfg.LabelNodes, cfg.Excursions, rng)
	return d
}

// Label returns the examples of level l: the positions of an optimal
// path, and with a random source their children and excursions
// (see the package comment). A level astar does not solve within
// pathNodes expansions gives none; each position is labelled within nodes.
func label(ctx context.Context, l *level.Level, pathNodes, nodes int64, excursions int, rng *rand.Rand) levelData {
	d := levelData{l: l}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return levelData{err: err}
	}
	if d.bd, err = NewBoard(ctx, b); err != nil {
		return levelData{err: err}
	}
	path, err := optimalPath(ctx, b, l, pathNodes)
	if err != nil {
		return levelData{err: err}
	}
	if path == nil {
		d.unsolved = true
		return d
	}
	seen := map[string]bool{}
	lb := newLabeler(d.bd)
	n := len(path) - 1
	add := func(p *sokoban.Position, pushes int, onPath bool, found string) {
		key := string(p.Pack(nil))
		if seen[key] {
			return
		}
		h, ok := d.bd.Bound(p)
		if !ok {
			return // the bound says dead: no model is asked
		}
		seen[key] = true
		d.examples = append(d.examples, Example{Key: p.PackExact(nil), Bound: h, Pushes: pushes, OnPath: onPath, Found: found})
	}
	// The path first, so that its positions keep their labels.
	for k, p := range path[:n] {
		add(p, n-k, true, "path")
	}
	if rng == nil {
		return d
	}
	var pushes []sokoban.Push
	for k, p := range path[:n] {
		p = p.Clone()
		pushes = p.Pushes(pushes[:0], nil)
		for _, m := range pushes {
			to := p.Apply(m)
			if seen[string(p.Pack(nil))] {
				p.Undo(m)
				continue
			}
			if d.bd.check.Deadlocked(p, to) {
				add(p, -1, false, "detector")
			} else if dist, ok, err := lb.label(ctx, p, nodes); err != nil {
				return levelData{err: err}
			} else if ok {
				add(p, dist, false, "astar")
			} else {
				d.skipped++
			}
			p.Undo(m)
		}
		for range excursions {
			q := path[k].Clone()
			steps := 2 + rng.IntN(3)
			for range steps {
				moves := d.bd.Children(q, nil)
				if len(moves) == 0 {
					break
				}
				q.Apply(moves[rng.IntN(len(moves))])
			}
			if seen[string(q.Pack(nil))] || q.Solved() {
				continue
			}
			if dist, ok, err := lb.label(ctx, q, nodes); err != nil {
				return levelData{err: err}
			} else if ok {
				add(q, dist, false, "astar")
			} else {
				d.skipped++
			}
		}
	}
	return d
}

// label runs the labeler from position p within nodes expansions: its
// optimal pushes, or -1 when it proves p unsolvable; false when the
// budget ran out.
func (lb *labeler) label(ctx context.Context, p *sokoban.Position, nodes int64) (int, bool, error) {
	d, ok := lb.solve(ctx, p, nodes)
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	return d, ok, nil
}

// optimalPath returns the positions of a push-optimal solution of l, from
// the start to the solved position (each with the player where the
// solution leaves it), or nil when astar does not solve l within nodes
// expansions.
func optimalPath(ctx context.Context, b *sokoban.Board, l *level.Level, nodes int64) ([]*sokoban.Position, error) {
	res, err := search.AStar{}.Solve(ctx, l, solver.Options{Budget: solver.Budget{Nodes: nodes}})
	if err != nil {
		return nil, err
	}
	if res.Status != solver.Solved {
		return nil, ctx.Err()
	}
	p := b.Start()
	path := []*sokoban.Position{p.Clone()}
	for _, mv := range res.Moves {
		to, push, ok := p.Step(mv.Dir)
		if !ok {
			return nil, fmt.Errorf("distance: %s: astar's solution does not replay", l.Name())
		}
		if push {
			p.Apply(sokoban.Push{Box: to, Dir: mv.Dir})
			path = append(path, p.Clone())
		} else {
			p.SetPlayer(to)
		}
	}
	if !p.Solved() || len(path)-1 != res.Pushes {
		return nil, fmt.Errorf("distance: %s: astar's solution does not solve the level", l.Name())
	}
	return path, nil
}
