package distance

import (
	"context"
	"errors"
	"math"

	"soko/deadlock"
	"soko/heuristic"
	"soko/internal/grid"
	"soko/nn"
	"soko/sokoban"
)

// The input planes, per grid square (Board.Encode): the planes of package
// grid (walls, goals, boxes, the player's reach), then these.
const (
	planeDead  = grid.Base + iota // a dead floor square: a box there can reach no goal
	planeNear                     // on a box: its pushes to the nearest goal, alone, / scale
	planeBound                    // every square: the position's bound / scale
	planes
)

// Planes is the number of input planes Board.Encode writes a square.
const Planes = planes

// scale divides pushes into the network's range, in the input and the
// output; Scale is it for the networks of other packages that read the
// same encoding.
const (
	scale = 10
	Scale = scale
)

// DeadGap is the target of a dead position: its bound plus DeadGap pushes.
// Boxoban's medium levels need at most 39 pushes; 20 more than the bound
// puts a dead position behind nearly every live one with the same boxes
// on goals, without a target so far off that it dominates the squared
// error.
const DeadGap = 20

// Unsolvable is the estimate of a position whose bound is infeasible (a box
// that can reach no goal): beyond any live position's of Boxoban's size,
// but not so far that one such child, averaged into its parent's value by
// MCTS, outweighs all its live siblings. Estimator.Flush puts a dead
// position further back where a live one queued with it is farther. It
// also caps the model's gap above the bound. It is an estimate, never a
// proof: only the infeasible bound proves a position dead.
const Unsolvable = 60

// meta names the encoding in the model file; a model of another encoding
// is refused.
const meta = "soko distance v1: planes wall,goal,box,reach,dead,near,bound; pushes above the pull-distance matching bound, scale 10"

// DefaultConfig is the network of the distance model: package nn's tower,
// small enough to evaluate a 10×10 board in a fraction of a millisecond.
func DefaultConfig() nn.Config {
	return nn.Config{Planes: planes, Embed: 16, Channels: 16, Blocks: 2, Hidden: 32}
}

// Board holds what the encoding and the bound need of one board: the
// distance model's input, which package puct's network reads too, the
// pull-distance matching bound and the detectors that keep a push.
type Board struct {
	b     *sokoban.Board
	dead  []bool
	near  []int32
	bound *heuristic.PushMatching
	check *deadlock.Checker
}

// NewBoard builds b's tables; it returns ctx.Err() when ctx is done first.
func NewBoard(ctx context.Context, b *sokoban.Board) (*Board, error) {
	dist, err := b.PullDistances(ctx)
	if err != nil {
		return nil, err
	}
	dead := deadlock.DeadSquares(b)
	return &Board{b: b, dead: dead, near: b.NearestGoal(), bound: heuristic.NewPushMatching(b, dist),
		check: deadlock.NewChecker(b, dead, detectors)}, nil
}

// detectors are the dynamic deadlock detectors whose finds are dead
// examples and cut a push (Board.Children): those of the MCTS solvers
// (package mcts).
var detectors = deadlock.Detectors{WallSegment: true, Freeze: true}

// Bound returns p's pull-distance matching bound, or false when no
// matching is feasible.
func (bd *Board) Bound(p *sokoban.Position) (int, bool) {
	h, ok := bd.bound.Bound(p)
	return int(h), ok
}

// Children appends to dst the pushes of p that stay live: none onto a
// dead square, none the detectors find deadlocked.
func (bd *Board) Children(p *sokoban.Position, dst []sokoban.Push) []sokoban.Push {
	start := len(dst)
	dst = p.Pushes(dst, bd.dead)
	kept := dst[:start]
	for _, m := range dst[start:] {
		if !bd.check.Deadlocked(p, p.Apply(m)) {
			kept = append(kept, m)
		}
		p.Undo(m)
	}
	return kept
}

// Bytes is the memory of the board's tables.
func (bd *Board) Bytes() int64 {
	return bd.b.Bytes() + bd.check.Bytes() + bd.bound.Bytes() + 5*int64(bd.b.N)
}

// Encode appends the planes of p, whose bound is h, to dst.
func (bd *Board) Encode(dst []float64, p *sokoban.Position, h int) []float64 {
	b := bd.b
	dst, in := grid.Append(dst, p, planes)
	w, hw := b.Width, len(in)/planes
	hb := float64(h) / scale
	for i := range hw {
		in[planeBound*hw+i] = hb
		s := b.At(i%w, i/w)
		if s == sokoban.None {
			continue
		}
		if bd.dead[s] {
			in[planeDead*hw+i] = 1
		}
		if p.HasBox(s) {
			if d := bd.near[s]; d >= 0 && d < sokoban.Unreachable {
				in[planeNear*hw+i] = float64(d) / scale
			}
		}
	}
	return dst
}

// Model is a trained distance model.
type Model struct {
	Net *nn.Net
}

// errEncoding is wrapped when a model file holds a network of another
// input encoding.
var errEncoding = errors.New("not a distance model of this version")

// Check reads the model file at path as Load does, without holding its
// weights (solver.Entry.CheckModel).
func Check(path string) error { return nn.VerifyEncoded(path, meta, planes, errEncoding) }

// Load reads a model written by Train (Model.Save).
func Load(path string) (*Model, error) {
	net, err := nn.LoadEncoded(path, meta, planes, errEncoding)
	if err != nil {
		return nil, err
	}
	return &Model{Net: net}, nil
}

// Save writes the model to path.
func (m *Model) Save(path string) error { return m.Net.Save(path) }

// Gap turns a network's value output, trained on this encoding's target,
// into pushes above the bound: never negative (the bound is admissible),
// at most Unsolvable, and DeadGap, the dead target, for a non-finite output
// (a diverged network). Package puct's value head has the same target.
func Gap(out float64) float64 {
	if math.IsNaN(out) || math.IsInf(out, 0) {
		return DeadGap
	}
	return min(max(out*scale, 0), Unsolvable)
}
