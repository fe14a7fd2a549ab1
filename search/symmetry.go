package search

import (
	"bytes"
	"math/bits"

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
	// img[s*T+t] is perm[t][s] and zImg[s*T+t] its box hash, T the number
	// of transforms: the images of one square lie together.
	img  []sokoban.Square
	zImg []uint64

	// Scratch: the player's region, its smallest image under each
	// transform, the hash of each image, the image's boxes as a bit set,
	// and the best key so far.
	seen   sokoban.Marks
	stack  []sokoban.Square
	least  []sokoban.Square
	hashes []uint64
	set    []uint64
	best   []byte
	wide   bool

	// The state being expanded (expand): the hash of its boxes' image
	// under each transform, and a depth-first tree of its player's region
	// that gives the children's least images without a flood fill (after).
	boxHash []uint64
	tree    symTree
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
	z := sokoban.NewZobrist(b.N, 0x5e77, 0x1e7)
	sy.zBox, sy.zPlayer = z.Box, z.Player
	n := len(sy.perm)
	sy.img, sy.zImg = make([]sokoban.Square, b.N*n), make([]uint64, b.N*n)
	for t, perm := range sy.perm {
		for s, ts := range perm {
			sy.img[s*n+t], sy.zImg[s*n+t] = ts, sy.zBox[ts]
		}
	}
	sy.seen = sokoban.NewMarks(b.N)
	sy.least = make([]sokoban.Square, n)
	sy.hashes = make([]uint64, n)
	sy.set = make([]uint64, (b.N+63)/64)
	sy.boxHash = make([]uint64, n)
	sy.tree = newSymTree(b.N, n)
	sy.wide = b.KeySize() == 2*(b.Boxes()+1)
	return sy
}

// Bytes returns the memory the tables take.
func (sy *symmetry) Bytes() int64 {
	// Per transform and square: perm, inv, img, zImg, and the tree's sub,
	// pre and suf; per square: zBox, zPlayer, seen, stack, and the tree's
	// numbering (Cuts) and box marks.
	n := int64(len(sy.perm))
	return n*int64(sy.b.N)*(4+4+4+8+4+4+4) + int64(sy.b.N)*(8+8+4+4+sokoban.CutsBytes+1+4)
}

// canon appends to dst the packed key (Position.Pack's format) of the
// image of p that the store keeps, and returns it with its hash and the
// transform that makes it. The image chosen has the smallest hash (our own
// Zobrist hash of the image's boxes and canonical player square), then the
// smallest key, so every image of p gets the same one.
func (sy *symmetry) canon(dst []byte, p *sokoban.Position) ([]byte, uint64, int) {
	sy.region(p)
	n := len(sy.perm)
	for t := range sy.hashes {
		sy.hashes[t] = sy.zPlayer[sy.least[t]]
	}
	for _, s := range p.BoxSquares() {
		z := sy.zImg[int(s)*n : int(s)*n+n]
		for t := range sy.hashes {
			sy.hashes[t] ^= z[t]
		}
	}
	return sy.choose(dst, p.BoxSquares())
}

// expand prepares canonChild for the children of p, the state about to be
// expanded: the hashes of its boxes' images and the tree of its region.
// It returns the number of squares in the region.
func (sy *symmetry) expand(p *sokoban.Position) int {
	n := len(sy.perm)
	clear(sy.boxHash)
	for _, s := range p.BoxSquares() {
		z := sy.zImg[int(s)*n : int(s)*n+n]
		for t := range sy.boxHash {
			sy.boxHash[t] ^= z[t]
		}
	}
	sy.tree.build(sy, p)
	return len(sy.tree.order())
}

// canonChild is canon for p, the position expand was given with its box on
// from pushed on to to, one square or more in a line: it updates the
// parent's box hashes for the one box moved, and takes the least images of
// the player's region from the parent's tree (symTree.after).
func (sy *symmetry) canonChild(dst []byte, p *sokoban.Position, from, to sokoban.Square) ([]byte, uint64, int) {
	sy.tree.after(sy, p, from, to)
	n := len(sy.perm)
	zf, zt := sy.zImg[int(from)*n:int(from)*n+n], sy.zImg[int(to)*n:int(to)*n+n]
	for t, h := range sy.boxHash {
		sy.hashes[t] = h ^ zf[t] ^ zt[t] ^ sy.zPlayer[sy.least[t]]
	}
	return sy.choose(dst, p.BoxSquares())
}

// choose appends to dst the key of the image of boxes and the region
// with the smallest hash in sy.hashes, then the smallest key, and returns
// it with the hash and the transform.
func (sy *symmetry) choose(dst []byte, boxes []sokoban.Square) ([]byte, uint64, int) {
	best := 0
	for t, h := range sy.hashes {
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

// pack appends the key of the image of boxes and the region under t: the
// images go into a bit set of squares, which gives them back in order.
func (sy *symmetry) pack(dst []byte, boxes []sokoban.Square, t int) []byte {
	n := len(sy.perm)
	for _, s := range boxes {
		ts := sy.img[int(s)*n+t]
		sy.set[ts>>6] |= 1 << (ts & 63)
	}
	for w, word := range sy.set {
		for word != 0 {
			s := w<<6 + bits.TrailingZeros64(word)
			if sy.wide {
				dst = append(dst, byte(s), byte(s>>8))
			} else {
				dst = append(dst, byte(s))
			}
			word &= word - 1
		}
		sy.set[w] = 0
	}
	if s := sy.least[t]; sy.wide {
		dst = append(dst, byte(s), byte(s>>8))
	} else {
		dst = append(dst, byte(s))
	}
	return dst
}

// region fills the player's region of p and sets least[t] to the smallest
// image of its squares under each transform t.
func (sy *symmetry) region(p *sokoban.Position) {
	sy.seen.Clear()
	for t := range sy.least {
		sy.least[t] = sokoban.Square(sy.b.N)
	}
	stack := append(sy.stack[:0], p.Player())
	sy.seen.Add(p.Player())
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for t, perm := range sy.perm {
			sy.least[t] = min(sy.least[t], perm[s])
		}
		for d := range sokoban.Dirs {
			if n := sy.b.Next(s, d); n != sokoban.None && !sy.seen.Has(n) && !p.HasBox(n) {
				sy.seen.Add(n)
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

// symTree is the player's region of one position numbered depth first
// (sokoban.Cuts, the module's one articulation-point search), with, per
// square and transform, the smallest image of its subtree's squares: what
// sokoban.Region keeps, with the smallest square kept under every
// transform instead of one, so that the least images of the region after
// a push come without a flood fill.
type symTree struct {
	// cuts numbers the region: cuts.Visit holds its squares, cuts.Met
	// lists them by number (Met[i] has number i+1).
	cuts sokoban.Cuts
	// box marks the boxes of the position built last, boxes lists them.
	box   []bool
	boxes []sokoban.Square
	// sub[s*T+t] is the smallest image under transform t of the squares
	// of the subtree of s.
	sub []sokoban.Square
	// pre[i*T+t] is the smallest image under t of the first i squares by
	// number and suf[i*T+t] that of the others, so the squares outside a
	// subtree, whose numbers are the ones before and after its own, have
	// their smallest image at hand.
	pre, suf []sokoban.Square
	ends     bool // pre and suf are filled
}

func newSymTree(squares, transforms int) symTree {
	return symTree{cuts: sokoban.NewCuts(squares), box: make([]bool, squares),
		sub: make([]sokoban.Square, squares*transforms),
		pre: make([]sokoban.Square, (squares+1)*transforms), suf: make([]sokoban.Square, (squares+1)*transforms)}
}

// has reports whether s is in the region.
func (tr *symTree) has(s sokoban.Square) bool { return tr.cuts.Visit.Has(s) }

// order lists the region's squares by number.
func (tr *symTree) order() []sokoban.Square { return tr.cuts.Met }

// build makes the tree of the player's region of p.
func (tr *symTree) build(sy *symmetry, p *sokoban.Position) {
	for _, s := range tr.boxes {
		tr.box[s] = false
	}
	tr.boxes = append(tr.boxes[:0], p.BoxSquares()...)
	for _, s := range tr.boxes {
		tr.box[s] = true
	}
	c, n := &tr.cuts, len(sy.perm)
	c.Visit.Clear()
	c.Met = c.Met[:0]
	c.Number(sy.b, tr.box, p.Player(), 0, 0)
	for _, v := range c.Met {
		copy(tr.sub[int(v)*n:int(v)*n+n], sy.img[int(v)*n:int(v)*n+n])
	}
	// A square's number is above its parent's: folding each subtree into
	// its parent's, highest number first, sums every subtree.
	for i := len(c.Met) - 1; i > 0; i-- {
		v := c.Met[i]
		u := c.Parent[v]
		su, sv := tr.sub[int(u)*n:int(u)*n+n], tr.sub[int(v)*n:int(v)*n+n]
		for t := range su {
			su[t] = min(su[t], sv[t])
		}
	}
	tr.ends = false
}

// sum fills pre and suf, which build leaves to the first child that needs
// them.
func (tr *symTree) sum(sy *symmetry) {
	tr.ends = true
	n := len(sy.perm)
	none := sokoban.Square(sy.b.N) // above every square
	order := tr.order()
	size := len(order)
	for t := range n {
		tr.pre[t], tr.suf[size*n+t] = none, none
	}
	for i, v := range order {
		img, prev, cur := sy.img[int(v)*n:int(v)*n+n], tr.pre[i*n:i*n+n], tr.pre[(i+1)*n:(i+1)*n+n]
		for t := range cur {
			cur[t] = min(prev[t], img[t])
		}
	}
	for i := size - 1; i >= 0; i-- {
		v := order[i]
		img, next, cur := sy.img[int(v)*n:int(v)*n+n], tr.suf[(i+1)*n:(i+1)*n+n], tr.suf[i*n:i*n+n]
		for t := range cur {
			cur[t] = min(next[t], img[t])
		}
	}
}

// after sets sy.least to the least images of the player's region of p, the
// position build was given with its box on s pushed on to t, one square or
// more in a line, much as sokoban.Region.After finds the smallest square:
// the new region is s with the parts of the old one without t that touch
// s, and the areas outside the old region that touch s. Each part's least
// images are in the tree (a split-off subtree's in sub, the rest's in pre,
// suf and sub). The areas outside are filled: they meet the old region
// only through s (the only square a box left; any other free square next
// to the old region is in it), so the fill stops at the old region and s,
// and they are mostly small corrals.
func (tr *symTree) after(sy *symmetry, p *sokoban.Position, s, t sokoban.Square) {
	n, b := len(sy.perm), sy.b
	copy(sy.least, sy.img[int(s)*n:int(s)*n+n])
	tIn := tr.has(t)
	var parts [5]bool // split-off subtrees under t's four directions, the rest
	outside := false  // an area outside the old region touches s
	for d := range sokoban.Dirs {
		x := b.Next(s, d)
		if x == sokoban.None || x == t || p.HasBox(x) {
			continue
		}
		if !tr.has(x) {
			if !outside {
				outside = true
				sy.seen.Clear()
			}
			if !sy.seen.Has(x) {
				tr.fillOutside(sy, p, x, s)
			}
			continue
		}
		if tIn {
			parts[tr.part(b, x, t)] = true
		}
	}
	if !tIn {
		root := tr.order()[0] // its subtree is the region
		for k, m := range tr.sub[int(root)*n : int(root)*n+n] {
			sy.least[k] = min(sy.least[k], m)
		}
		return
	}
	for d, ok := range parts[:4] {
		if ok {
			c := b.Next(t, sokoban.Dir(d))
			for k, m := range tr.sub[int(c)*n : int(c)*n+n] {
				sy.least[k] = min(sy.least[k], m)
			}
		}
	}
	if parts[4] {
		// The rest: the squares numbered before t and after its subtree,
		// and the subtrees of t's children that do not split off.
		if !tr.ends {
			tr.sum(sy)
		}
		c := &tr.cuts
		nt, end := c.Num[t], c.Last[t]
		before, behind := tr.pre[int(nt-1)*n:int(nt)*n], tr.suf[int(end)*n:int(end+1)*n]
		for k := range sy.least {
			sy.least[k] = min(sy.least[k], before[k], behind[k])
		}
		for d := range sokoban.Dirs {
			ch := b.Next(t, d)
			if ch == sokoban.None || !tr.has(ch) {
				continue
			}
			if c.Parent[ch] == t && c.Low[ch] < nt {
				for k, m := range tr.sub[int(ch)*n : int(ch)*n+n] {
					sy.least[k] = min(sy.least[k], m)
				}
			}
		}
	}
}

// fillOutside fills the area of p's free squares outside the tree's region
// and other than s that holds x, marking it in sy.seen, and lowers
// sy.least to its least images.
func (tr *symTree) fillOutside(sy *symmetry, p *sokoban.Position, x, s sokoban.Square) {
	n, b, seen := len(sy.perm), sy.b, sy.seen
	seen.Add(x)
	stack := append(sy.stack[:0], x)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for k, m := range sy.img[int(v)*n : int(v)*n+n] {
			sy.least[k] = min(sy.least[k], m)
		}
		for d := range sokoban.Dirs {
			if w := b.Next(v, d); w != sokoban.None && w != s && !seen.Has(w) && !tr.has(w) && !p.HasBox(w) {
				seen.Add(w)
				stack = append(stack, w)
			}
		}
	}
	sy.stack = stack
}

// part returns which part of the region without t holds x, a square of the
// region other than t: the direction from t of the child of t whose
// subtree split off and holds x (Cuts.Part), or 4 for the rest.
func (tr *symTree) part(b *sokoban.Board, x, t sokoban.Square) int {
	ch := tr.cuts.Part(b, t, x)
	for d := range sokoban.Dirs {
		if ch != sokoban.None && b.Next(t, d) == ch {
			return int(d)
		}
	}
	return 4
}
