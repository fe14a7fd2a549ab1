package alphazero

import (
	"errors"

	"soko/nn"
	"soko/sokoban"
)

// The network input, per grid square (see the package comment).
const (
	planeWall = iota
	planeGoal
	planeBox
	planeReach
	planeTarget
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
	b := p.Board()
	w, h := b.Width, b.Level.Height
	hw := w * h
	start := len(dst)
	for range planes * hw {
		dst = append(dst, 0)
	}
	in := dst[start:]
	p.Reach()
	for y := range h {
		for x := range w {
			i := y*w + x
			in[planeTarget*hw+i] = target / scale
			s := b.At(x, y)
			if s == sokoban.None {
				in[planeWall*hw+i] = 1
				continue
			}
			if b.IsGoal(s) {
				in[planeGoal*hw+i] = 1
			}
			if p.HasBox(s) {
				in[planeBox*hw+i] = 1
			}
			if p.Reachable(s) {
				in[planeReach*hw+i] = 1
			}
		}
	}
	return dst
}

// logit is the policy logit of push m on board b.
func logit(b *sokoban.Board, m sokoban.Push) int32 {
	x, y := b.XY(m.Box)
	return int32(int(m.Dir)*b.Width*b.Level.Height + y*b.Width + x)
}

// errEncoding is wrapped when a model file holds a network of another input
// encoding.
var errEncoding = errors.New("not an alphazero model of this version")

// Load reads a model trained by Train from the file path.
func Load(path string) (*nn.Net, error) {
	return nn.LoadEncoded(path, meta, planes, errEncoding)
}
