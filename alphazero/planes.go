package alphazero

import (
	"errors"

	"soko/internal/grid"
	"soko/nn"
	"soko/sokoban"
)

// The network input, per grid square (see the package comment): the
// planes of package grid, then the target.
const (
	planeTarget = grid.Base + iota
	planes
)

// scale divides heuristic values and steps into the network's range.
const scale = 10

// meta names the input encoding and scales in the model file; a model of
// another encoding is refused.
const meta = "soko alphazero v1: planes wall,goal,box,reach,target; steps to reach target matching, scale 10"

// encode appends the planes of position p with target heuristic value
// target (pushes) to dst.
func encode(dst []float64, p *sokoban.Position, target float64) []float64 {
	dst, in := grid.Append(dst, p, planes)
	hw := len(in) / planes
	for i := range hw {
		in[planeTarget*hw+i] = target / scale
	}
	return dst
}

// errEncoding is wrapped when a model file holds a network of another input
// encoding.
var errEncoding = errors.New("not an alphazero model of this version")

// Check reads the model file at path as Load does, without holding its
// weights (solver.Entry.CheckModel): a network too large for the memory
// budget is found out before its weights are read.
func Check(path string) error { return nn.VerifyEncoded(path, meta, planes, errEncoding) }

// Load reads a model trained by Train from the file path.
func Load(path string) (*nn.Net, error) {
	return nn.LoadEncoded(path, meta, planes, errEncoding)
}
