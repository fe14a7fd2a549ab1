package puct

import (
	"context"
	"errors"

	"soko/distance"
	"soko/nn"
	"soko/sokoban"
)

// The input planes and their scale are the distance model's
// (distance.Board.Encode); scale also divides the value head's output.
const (
	planes = distance.Planes
	scale  = distance.Scale
)

// Gamma turns pushes into a leaf value: a position estimated d pushes from
// its solution is worth Gamma^d, so a solved position is worth 1 and a
// dead one (no solution, d infinite) 0.
const Gamma = 0.9

// DeadGap is the value target, in pushes above the bound, of a position
// from which self-play found no solution: the distance model's dead target
// (distance.DeadGap), as far as a Boxoban level's longest solutions beyond
// its bound, worth Gamma^(bound+20) < 0.13.
const DeadGap = distance.DeadGap

// meta names the encoding in the model file; a model of another encoding
// is refused.
const meta = "soko puct v1: planes wall,goal,box,reach,dead,near,bound; value pushes above the pull-distance matching bound, scale 10; policy over pushes"

// DefaultConfig is the network of the puct solver: the distance model's
// tower (distance.DefaultConfig) on the same input, small enough to train
// on two cores and to evaluate a 10×10 board in a fraction of a
// millisecond.
func DefaultConfig() nn.Config { return distance.DefaultConfig() }

// board holds what the search and the encoding need of one board: the
// distance model's tables (its encoding, the bound, the dead squares and
// the detectors of the MCTS solvers that cut a push), and the board.
type board struct {
	*distance.Board
	b *sokoban.Board
}

func newBoard(ctx context.Context, b *sokoban.Board) (*board, error) {
	d, err := distance.NewBoard(ctx, b)
	if err != nil {
		return nil, err
	}
	return &board{Board: d, b: b}, nil
}

// Model is a trained puct network: a value head that estimates the pushes
// above the bound, and a policy head over pushes.
type Model struct {
	Net *nn.Net
}

// ErrEncoding is wrapped when a model file holds a network of another
// input encoding, such as a distance or alphazero model.
var ErrEncoding = errors.New("not a puct model of this version")

// Check reads the model file at path as Load does, without holding its
// weights (solver.Entry.CheckModel).
func Check(path string) error { return nn.VerifyEncoded(path, meta, planes, ErrEncoding) }

// Load reads a model written by Model.Save. A file that is not a model,
// a truncated or corrupt one (nn.ErrFormat), or a model of another kind
// (ErrEncoding) is an error that names the file.
func Load(path string) (*Model, error) {
	net, err := nn.LoadEncoded(path, meta, planes, ErrEncoding)
	if err != nil {
		return nil, err
	}
	return &Model{Net: net}, nil
}

// Save writes the model to path.
func (m *Model) Save(path string) error { return m.Net.Save(path) }
