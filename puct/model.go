package puct

import (
	"context"
	"errors"
	"fmt"
	"math"

	"soko/deadlock"
	"soko/heuristic"
	"soko/nn"
	"soko/sokoban"
)

// The input planes, per grid square.
const (
	planeWall  = iota // not a floor square of the board
	planeGoal         // a goal
	planeBox          // a box
	planeReach        // the player can walk there
	planeDead         // a dead floor square: a box there can reach no goal
	planeNear         // on a box: its pushes to the nearest goal, alone, / scale
	planeBound        // every square: the position's bound / scale
	planes
)

// scale divides pushes into the network's range, in the input and in the
// value head's output.
const scale = 10

// Gamma turns pushes into a leaf value: a position estimated d pushes from
// its solution is worth Gamma^d, so a solved position is worth 1 and a
// dead one (no solution, d infinite) 0.
const Gamma = 0.9

// DeadGap is the value target, in pushes above the bound, of a position
// from which self-play found no solution: as far as a Boxoban level's
// longest solutions beyond its bound, worth Gamma^(bound+20) < 0.13.
const DeadGap = 20

// meta names the encoding in the model file; a model of another encoding
// is refused.
const meta = "soko puct v1: planes wall,goal,box,reach,dead,near,bound; value pushes above the pull-distance matching bound, scale 10; policy over pushes"

// DefaultConfig is the network of the puct solver: package nn's tower,
// small enough to train on two cores and to evaluate a 10×10 board in a
// fraction of a millisecond.
func DefaultConfig() nn.Config {
	return nn.Config{Planes: planes, Embed: 16, Channels: 16, Blocks: 2, Hidden: 32}
}

// detectors are the dynamic deadlock detectors that cut children from the
// tree: those of the MCTS solvers (package mcts).
var detectors = deadlock.Detectors{WallSegment: true, Freeze: true}

// board holds what the search and the encoding need of one board.
type board struct {
	b     *sokoban.Board
	dead  []bool
	near  []int32
	bound *heuristic.PushMatching
	check *deadlock.Checker
}

func newBoard(ctx context.Context, b *sokoban.Board) (*board, error) {
	dist, err := b.PullDistances(ctx)
	if err != nil {
		return nil, err
	}
	dead := deadlock.DeadSquares(b)
	return &board{b: b, dead: dead, near: b.NearestGoal(), bound: heuristic.NewPushMatching(b, dist),
		check: deadlock.NewChecker(b, dead, detectors)}, nil
}

// bytes is the memory of the board's tables.
func (bd *board) bytes() int64 {
	return bd.b.Bytes() + bd.check.Bytes() + bd.bound.Bytes() + 5*int64(bd.b.N)
}

// children appends to dst the pushes of p that the search keeps: none onto
// a dead square, none the detectors find deadlocked.
func (bd *board) children(p *sokoban.Position, dst []sokoban.Push) []sokoban.Push {
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

// encode appends the planes of p, whose bound is h, to dst.
func (bd *board) encode(dst []float64, p *sokoban.Position, h int) []float64 {
	b := bd.b
	w, ht := b.Width, b.Level.Height
	hw := w * ht
	start := len(dst)
	for range planes * hw {
		dst = append(dst, 0)
	}
	in := dst[start:]
	p.Reach()
	hb := float64(h) / scale
	for y := range ht {
		for x := range w {
			i := y*w + x
			in[planeBound*hw+i] = hb
			s := b.At(x, y)
			if s == sokoban.None {
				in[planeWall*hw+i] = 1
				continue
			}
			if b.IsGoal(s) {
				in[planeGoal*hw+i] = 1
			}
			if bd.dead[s] {
				in[planeDead*hw+i] = 1
			}
			if p.HasBox(s) {
				in[planeBox*hw+i] = 1
				if d := bd.near[s]; d >= 0 && d < sokoban.Unreachable {
					in[planeNear*hw+i] = float64(d) / scale
				}
			}
			if p.Reachable(s) {
				in[planeReach*hw+i] = 1
			}
		}
	}
	return dst
}

// logit is the index of push m's policy logit on board b (nn.Sample.Legal).
func logit(b *sokoban.Board, m sokoban.Push) int32 {
	x, y := b.XY(m.Box)
	return int32(int(m.Dir)*b.Width*b.Level.Height + y*b.Width + x)
}

// Model is a trained puct network: a value head that estimates the pushes
// above the bound, and a policy head over pushes.
type Model struct {
	Net *nn.Net
}

// ErrEncoding is wrapped when a model file holds a network of another
// input encoding, such as a distance or alphazero model.
var ErrEncoding = errors.New("not a puct model of this version")

// Load reads a model written by Model.Save. A file that is not a model,
// a truncated or corrupt one (nn.ErrFormat), or a model of another kind
// (ErrEncoding) is an error that names the file.
func Load(path string) (*Model, error) {
	net, err := nn.Load(path)
	if err != nil {
		return nil, err
	}
	if net.Meta != meta || net.Planes != planes {
		return nil, fmt.Errorf("model %s: %w (it says %q)", path, ErrEncoding, net.Meta)
	}
	return &Model{Net: net}, nil
}

// Save writes the model to path.
func (m *Model) Save(path string) error { return m.Net.Save(path) }

// gap turns a value-head output into pushes above the bound: never
// negative (the bound is admissible), and a non-finite output (a diverged
// network) counts as the dead target.
func gap(out float64) float64 {
	if math.IsNaN(out) || math.IsInf(out, 0) {
		return DeadGap
	}
	return min(max(out*scale, 0), 3*DeadGap)
}
