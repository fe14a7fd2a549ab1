package search

import (
	"bytes"
	"math/rand/v2"
	"slices"

	"soko/level"
	"soko/sokoban"
)

// symmetry stores positions up to the board's symmetries: the reflections
// and rotations of the grid that map the floor onto itself and the goals
// onto the goals. Positions that are images of each other under one of them
// are solved by the images of each other's solutions, with the same number
// of pushes, so a search over pushes may keep one of them: each is stored
// as the image that comes first in a fixed order (canon), and the pushes
// made from a stored position are in its frame, which solution maps back.
// Symmetric levels are common among hand-made ones; on Microban 93, with
// four symmetries, A* expands about a quarter of the states.
type symmetry struct {
	b *sokoban.Board
	// perm[t][s] is the image of square s under transform t, and dir[t][d]
	// that of direction d; inv and invDir are the inverses. Transform 0 is
	// the identity.
	perm, inv     [][]sokoban.Square
	dir, invDir   [][4]sokoban.Dir
	zBox, zPlayer []uint64

	// Scratch: the player's region, its smallest image under each
	// transform, the hash of each image, and sorted box squares.
	seen   []uint32
	epoch  uint32
	stack  []sokoban.Square
	least  []sokoban.Square
	hashes []uint64
	sorted []sokoban.Square
	best   []byte
	wide   bool
}

// newSymmetry returns the symmetries of b, or nil when b has none but the
// identity.
func newSymmetry(b *sokoban.Board) *symmetry {
	minX, minY, maxX, maxY := b.Width, b.Level.Height, -1, -1
	for s := range sokoban.Square(b.N) {
		x, y := b.XY(s)
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	// The eight isometries of the bounding box, as maps of offsets from its
	// corner (w, h its extent); those that swap the axes need a square box.
	w, h := maxX-minX, maxY-minY
	maps := []func(x, y int) (int, int){
		func(x, y int) (int, int) { return x, y },
		func(x, y int) (int, int) { return w - x, y },
		func(x, y int) (int, int) { return x, h - y },
		func(x, y int) (int, int) { return w - x, h - y },
	}
	if w == h {
		maps = append(maps,
			func(x, y int) (int, int) { return y, x },
			func(x, y int) (int, int) { return h - y, x },
			func(x, y int) (int, int) { return y, w - x },
			func(x, y int) (int, int) { return h - y, w - x })
	}
	steps := [4][2]int{level.Up: {0, -1}, level.Down: {0, 1}, level.Left: {-1, 0}, level.Right: {1, 0}}
	sy := &symmetry{b: b}
	for _, f := range maps {
		perm := make([]sokoban.Square, b.N)
		ok := true
		for s := range sokoban.Square(b.N) {
			x, y := b.XY(s)
			tx, ty := f(x-minX, y-minY)
			t := b.At(tx+minX, ty+minY)
			if t == sokoban.None || b.IsGoal(t) != b.IsGoal(s) {
				ok = false
				break
			}
			perm[s] = t
		}
		if !ok {
			continue
		}
		var dir [4]sokoban.Dir
		for d, st := range steps {
			ox, oy := f(0, 0)
			dx, dy := f(st[0], st[1])
			for e, se := range steps {
				if se == [2]int{dx - ox, dy - oy} {
					dir[d] = sokoban.Dir(e)
				}
			}
		}
		inv := make([]sokoban.Square, b.N)
		for s, t := range perm {
			inv[t] = sokoban.Square(s)
		}
		var invDir [4]sokoban.Dir
		for d, e := range dir {
			invDir[e] = sokoban.Dir(d)
		}
		sy.perm, sy.inv = append(sy.perm, perm), append(sy.inv, inv)
		sy.dir, sy.invDir = append(sy.dir, dir), append(sy.invDir, invDir)
	}
	if len(sy.perm) < 2 {
		return nil
	}
	rng := rand.New(rand.NewPCG(0x5e77, 0x1e7))
	sy.zBox, sy.zPlayer = make([]uint64, b.N), make([]uint64, b.N)
	for s := range b.N {
		sy.zBox[s], sy.zPlayer[s] = rng.Uint64(), rng.Uint64()
	}
	sy.seen = make([]uint32, b.N)
	sy.least = make([]sokoban.Square, len(sy.perm))
	sy.hashes = make([]uint64, len(sy.perm))
	sy.wide = b.KeySize() == 2*(b.Boxes()+1)
	return sy
}

// Bytes returns the memory the tables take.
func (sy *symmetry) Bytes() int64 {
	return int64(len(sy.perm))*int64(sy.b.N)*8 + int64(sy.b.N)*(8+8+4+4)
}

// canon appends to dst the packed key (Position.Pack's format) of the
// image of p that the store keeps, and returns it with its hash and the
// transform that makes it. The image chosen has the smallest hash (our own
// Zobrist hash of the image's boxes and canonical player square), then the
// smallest key, so every image of p gets the same one.
func (sy *symmetry) canon(dst []byte, p *sokoban.Position) ([]byte, uint64, int) {
	sy.region(p)
	boxes := p.BoxSquares()
	best := 0
	for t, perm := range sy.perm {
		h := sy.zPlayer[sy.least[t]]
		for _, s := range boxes {
			h ^= sy.zBox[perm[s]]
		}
		sy.hashes[t] = h
		if h < sy.hashes[best] {
			best = t
		}
	}
	start := len(dst)
	dst = sy.pack(dst, boxes, best)
	for t := best + 1; t < len(sy.perm); t++ {
		if sy.hashes[t] != sy.hashes[best] {
			continue
		}
		sy.best = append(sy.best[:0], dst[start:]...)
		dst = sy.pack(dst[:start], boxes, t)
		if bytes.Compare(dst[start:], sy.best) < 0 {
			best = t
		} else {
			dst = append(dst[:start], sy.best...)
		}
	}
	return dst, sy.hashes[best], best
}

// pack appends the key of the image of boxes and the region under t.
func (sy *symmetry) pack(dst []byte, boxes []sokoban.Square, t int) []byte {
	sorted := sy.sorted[:0]
	for _, s := range boxes {
		sorted = append(sorted, sy.perm[t][s])
	}
	slices.Sort(sorted)
	sy.sorted = sorted
	for _, s := range append(sorted, sy.least[t]) {
		if sy.wide {
			dst = append(dst, byte(s), byte(s>>8))
		} else {
			dst = append(dst, byte(s))
		}
	}
	return dst
}

// region fills the player's region of p and sets least[t] to the smallest
// image of its squares under each transform t.
func (sy *symmetry) region(p *sokoban.Position) {
	sy.epoch++
	if sy.epoch == 0 {
		clear(sy.seen)
		sy.epoch = 1
	}
	for t := range sy.least {
		sy.least[t] = sokoban.Square(sy.b.N)
	}
	stack := append(sy.stack[:0], p.Player())
	sy.seen[p.Player()] = sy.epoch
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for t, perm := range sy.perm {
			sy.least[t] = min(sy.least[t], perm[s])
		}
		for d := range sokoban.Dir(4) {
			if n := sy.b.Next(s, d); n != sokoban.None && sy.seen[n] != sy.epoch && !p.HasBox(n) {
				sy.seen[n] = sy.epoch
				stack = append(stack, n)
			}
		}
	}
	sy.stack = stack
}

// push maps push m, made in the frame of transform t's image, back to the
// position it is the image of.
func (sy *symmetry) push(m sokoban.Push, t int) sokoban.Push {
	return sokoban.Push{Box: sy.inv[t][m.Box], Dir: sy.invDir[t][m.Dir]}
}
