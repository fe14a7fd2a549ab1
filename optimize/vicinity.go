package optimize

import (
	"bytes"
	"math"
	"time"

	"soko/sokoban"
)

// unlimited is a radius that admits every square.
const unlimited = MaxRadius + 1

// stretch is one search's vicinity: the box configurations Q_0 … Q_m of a
// stretch of m pushes, as bitsets and box lists, and each push's from and to
// squares. A configuration C is in the vicinity when for some t the boxes of
// C off Q_t's squares number at most len(radii) and can be matched one to
// one to the squares of Q_t left empty so that, largest first, the i-th is
// among the radii[i] nearest squares (near) of its partner.
//
// admit finds such a t in one sweep: d_t = |C \ Q_t| starts as |C \ Q_0|,
// and since Q_{t+1} = Q_t − {from_t} + {to_t},
//
//	d_{t+1} = d_t + [from_t ∈ C] − [to_t ∈ C].
//
// Only where d_t ≤ k are the off boxes listed and matched.
type stretch struct {
	o      *optimizer
	radii  []int
	words  int
	nb     int
	bits   []uint64         // (m+1) × words: the squares of Q_t
	boxes  []sokoban.Square // (m+1) × nb: the boxes of Q_t
	from   []sokoban.Square
	to     []sokoban.Square
	off    []sokoban.Square // scratch: boxes of C off Q_t
	empty  []sokoban.Square // scratch: squares of Q_t left empty by C
	ranks  []int
	assign []int
}

func newStretch(o *optimizer, start *sokoban.Position, seg []sokoban.Push, radii []int) *stretch {
	p := start.Clone()
	m := len(seg)
	s := &stretch{o: o, radii: radii, words: (o.b.N + 63) / 64, nb: len(p.BoxSquares())}
	s.bits = make([]uint64, (m+1)*s.words)
	s.boxes = make([]sokoban.Square, 0, (m+1)*s.nb)
	s.from = make([]sokoban.Square, m)
	s.to = make([]sokoban.Square, m)
	for t := 0; ; t++ {
		row := s.bits[t*s.words : (t+1)*s.words]
		for _, b := range p.BoxSquares() {
			row[b>>6] |= 1 << (b & 63)
		}
		s.boxes = append(s.boxes, p.BoxSquares()...)
		if t == m {
			break
		}
		s.from[t] = seg[t].Box
		s.to[t] = p.Apply(seg[t])
	}
	k := len(radii)
	s.off = make([]sokoban.Square, 0, k)
	s.empty = make([]sokoban.Square, 0, k)
	s.ranks = make([]int, k)
	s.assign = make([]int, k)
	if radii[0] < unlimited {
		o.nearTable(radii[0])
	}
	return s
}

// bytes returns the memory of the stretch's tables.
func (s *stretch) bytes() int64 {
	return 8*int64(len(s.bits)) + 4*int64(len(s.boxes)+len(s.from)+len(s.to))
}

func (s *stretch) has(t int, sq sokoban.Square) bool {
	return s.bits[t*s.words+int(sq>>6)]&(1<<(sq&63)) != 0
}

// admit reports whether p's boxes are in the vicinity.
func (s *stretch) admit(p *sokoban.Position) bool {
	k := len(s.radii)
	d := 0
	for _, b := range p.BoxSquares() {
		if !s.has(0, b) {
			d++
		}
	}
	for t := 0; ; t++ {
		if d <= k && s.fits(p, t, d) {
			return true
		}
		if t == len(s.from) {
			return false
		}
		if p.HasBox(s.from[t]) {
			d++
		}
		if p.HasBox(s.to[t]) {
			d--
		}
	}
}

// fits reports whether the d boxes of p off Q_t can be matched to the
// squares Q_t leaves empty within the radii.
func (s *stretch) fits(p *sokoban.Position, t, d int) bool {
	if d == 0 {
		return true
	}
	if s.radii[0] >= unlimited {
		return true
	}
	s.off, s.empty = s.off[:0], s.empty[:0]
	for _, b := range p.BoxSquares() {
		if !s.has(t, b) {
			s.off = append(s.off, b)
		}
	}
	for _, b := range s.boxes[t*s.nb : (t+1)*s.nb] {
		if !p.HasBox(b) {
			s.empty = append(s.empty, b)
		}
	}
	for i := range d {
		s.assign[i] = i
	}
	return s.permute(0, d)
}

// permute tries every matching of off boxes to empty squares, fixing
// positions from i on.
func (s *stretch) permute(i, d int) bool {
	if i == d {
		return s.within(d)
	}
	for j := i; j < d; j++ {
		s.assign[i], s.assign[j] = s.assign[j], s.assign[i]
		ok := s.permute(i+1, d)
		s.assign[i], s.assign[j] = s.assign[j], s.assign[i]
		if ok {
			return true
		}
	}
	return false
}

// within reports whether the matching in assign keeps each off box within
// a radius: the ranks, sorted largest first, against the radii.
func (s *stretch) within(d int) bool {
	for i := range d {
		s.ranks[i] = s.o.rank(s.empty[s.assign[i]], s.off[i])
	}
	r := s.ranks[:d]
	for i := 1; i < d; i++ { // insertion sort, largest first; d ≤ MaxRadii
		for j := i; j > 0 && r[j] > r[j-1]; j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	for i, v := range r {
		if v > s.radii[i] {
			return false
		}
	}
	return true
}

// nearTable lists for every square the n nearest squares a box may stand
// on (not dead), in the order of a breadth-first search over the floor.
func (o *optimizer) nearTable(n int) {
	if o.nearN >= n {
		return
	}
	o.nearN = n
	o.near = make([]sokoban.Square, o.b.N*n)
	for i := range o.near {
		o.near[i] = sokoban.None
	}
	o.rankTab = nil
	if o.b.N <= denseRanks {
		o.rankTab = make([]uint16, o.b.N*o.b.N)
	}
	seen := make([]uint32, o.b.N)
	var queue []sokoban.Square
	for s := range sokoban.Square(o.b.N) {
		if s%256 == 0 && o.ctx.Err() != nil {
			o.stopped, o.nearN = true, 0 // built again next time
			return
		}
		mark := uint32(s) + 1
		queue = append(queue[:0], s)
		seen[s] = mark
		row := o.near[int(s)*n : int(s+1)*n]
		found := 0
		for head := 0; head < len(queue) && found < n; head++ {
			q := queue[head]
			if q != s && !o.dead[q] {
				row[found] = q
				found++
				if o.rankTab != nil {
					o.rankTab[int(s)*o.b.N+int(q)] = uint16(found)
				}
			}
			for d := range sokoban.Dirs {
				if x := o.b.Next(q, d); x != sokoban.None && seen[x] != mark {
					seen[x] = mark
					queue = append(queue, x)
				}
			}
		}
	}
}

// denseRanks is the most squares a board may have for rank to use a table
// of every pair (2 bytes each) instead of scanning a square's nearest.
const denseRanks = 1024

// rank returns where a stands among the squares nearest to s, from 1, or
// unlimited when it is not among them.
func (o *optimizer) rank(s, a sokoban.Square) int {
	if o.rankTab != nil {
		if r := o.rankTab[int(s)*o.b.N+int(a)]; r > 0 {
			return int(r)
		}
		return unlimited
	}
	row := o.near[int(s)*o.nearN : int(s+1)*o.nearN]
	for i, q := range row {
		if q == a {
			return i + 1
		}
		if q == sokoban.None {
			break
		}
	}
	return unlimited
}

// search finds a cheapest path in the metric from start (the player on
// their exact square) through positions whose boxes are in the stretch's
// vicinity to the end of the stretch: when next is nil, any solved
// position; otherwise the boxes where seg leaves them with the player
// anywhere from which they can walk to push next, that walk counted. It
// returns the path, and what it saves, when it costs less than seg with
// that walk; ok is false otherwise, and o.outgrown says whether the search
// was stopped by the memory budget.
//
// It is A* over positions with the player's exact square: a push costs one
// push and the walk to it plus one move. The bound is newEndMatch's
// matching of the boxes to the target configuration's squares, counted as
// that many pushes and moves; a child is first tested against the cheaper
// sum of each box's nearest target square (boundOf), which the matching
// never falls below. Positions whose cost and bound reach the stretch's
// own cost are never stored: they cannot lead to a shorter path. A
// position is closed once: one push changes a box's distances by one
// except where the player cannot reach the side a box's best path starts
// from, and there the path found may miss a cheaper one, never a valid one.
// Reaching the target boxes queues a goal item whose cost includes the
// walk to next; the stretch is replaced when that item comes first.
func (o *optimizer) search(start *sokoban.Position, seg []sokoban.Push, next *sokoban.Push, radii []int) (path []sokoban.Push, gain Score, ok bool) {
	o.searches++
	v := newStretch(o, start, seg, radii)
	if o.done() {
		return nil, gain, false
	}
	b := o.b
	end := start.Clone()
	segScore := Score{Pushes: len(seg), Moves: o.walkCost(end, seg)}
	toGo, nextBehind := o.target(end, next)
	if next != nil {
		segScore.Moves += o.walk.distance(end, nextBehind)
	}
	old := o.metric.cost(segScore)
	targetKey := end.PackExact(nil)
	boxBytes := len(targetKey) - len(targetKey)/(len(end.BoxSquares())+1) // the packed boxes, without the player
	const hScale = costScale + 1                                          // a bound of h pushes is h pushes and h moves
	em := o.newEndMatch(end.BoxSquares())

	g := o.graph.reset(b)
	pos := start.Clone()
	h0, feasible := em.Bound(pos)
	if !feasible {
		return nil, gain, false
	}
	key := pos.PackExact(nil)
	g.store.Intern(key, pos.HashExact())
	g.add(noParent, sokoban.Push{}, 0)
	g.open.push(item{f: int64(h0) * hScale, g: 0, id: 0})
	const goal = noParent - 1 // the goal item's id
	goalCost, goalParent := int64(math.MaxInt64), noParent
	boxes := make([]sokoban.Square, 0, len(pos.BoxSquares()))
	for len(g.open) > 0 {
		it := g.open.pop()
		id := it.id
		if it.f >= old {
			return nil, gain, false
		}
		if id == goal {
			found := o.metric.score(goalCost)
			return g.path(goalParent), Score{Pushes: segScore.Pushes - found.Pushes, Moves: segScore.Moves - found.Moves}, true
		}
		if g.closed[id] || it.g != g.cost[id] {
			continue
		}
		g.closed[id] = true
		pos.Unpack(g.store.Key(id))
		if next == nil && pos.Solved() {
			goalCost, goalParent = it.g, id
			g.open.push(item{f: it.g, g: it.g, id: goal})
			continue
		}
		o.expanded++
		// One expansion takes at least a walk over the board, far more
		// than a look at the context.
		if o.ctx.Err() != nil {
			o.stopped = true
			return nil, gain, false
		}
		if o.expanded%64 == 0 && !o.until.IsZero() && time.Now().After(o.until) {
			o.slow = true
			return nil, gain, false
		}
		if g.bytes()+v.bytes()+em.Bytes()+o.pullBytes > o.memory {
			o.outgrown = true
			return nil, gain, false
		}
		o.walk.fill(pos)
		if next != nil && bytes.Equal(g.store.Key(id)[:boxBytes], targetKey[:boxBytes]) {
			if w := o.walk.at(nextBehind); w >= 0 {
				if c := it.g + o.metric.cost(Score{Moves: int(w)}); c < goalCost {
					goalCost, goalParent = c, id
					g.open.push(item{f: c, g: c, id: goal})
				}
			}
		}
		h := boundOf(toGo, pos)
		em.SetBase(pos, id)
		player := pos.Player()
		boxes = append(boxes[:0], pos.BoxSquares()...)
		for i, s := range boxes {
			// An expansion on a board of many boxes tests hundreds of
			// children for deadlocks: look at the context on the way.
			if i%16 == 15 && o.ctx.Err() != nil {
				o.stopped = true
				return nil, gain, false
			}
			for d := range sokoban.Dirs {
				behind, front := b.Next(s, d^1), b.Next(s, d)
				if behind == sokoban.None || front == sokoban.None || pos.HasBox(front) || o.dead[front] || toGo[front] >= sokoban.Unreachable {
					continue
				}
				walk := o.walk.at(behind)
				if walk < 0 {
					continue
				}
				c := it.g + o.metric.cost(Score{Pushes: 1, Moves: int(walk) + 1})
				f := c + (h-int64(toGo[s])+int64(toGo[front]))*hScale
				if f >= old {
					continue
				}
				m := sokoban.Push{Box: s, Dir: d}
				to := pos.Apply(m)
				hm, ok := em.Child(pos)
				if f = c + int64(hm)*hScale; !ok || f >= old {
					pos.Undo(m)
					pos.SetPlayer(player)
					continue
				}
				key = pos.PackAt(key[:0], s) // as PackExact, sorting by insertion: pos was unpacked sorted, one push ago
				child, fresh := g.store.Intern(key, pos.HashExact())
				if fresh {
					em.Keep(child)
					// Tested once: a position outside the vicinity or
					// deadlocked is stored closed and never queued.
					g.add(id, m, c)
					g.closed[child] = !v.admit(pos) || o.checker.Deadlocked(pos, to)
				}
				g.relax(child, fresh, id, m, item{f: f, g: c, id: child})
				pos.Undo(m)
				pos.SetPlayer(player)
			}
		}
	}
	return nil, gain, false
}

// target returns what a search of a stretch ending at end needs of its
// end: per square, the pushes that take a lone box to the nearest square
// of end's boxes, or to the nearest goal for the last stretch (next nil);
// and the square behind next, where the player must be able to walk.
func (o *optimizer) target(end *sokoban.Position, next *sokoban.Push) (toGo []int32, nextBehind sokoban.Square) {
	if next == nil {
		if o.toGoal == nil {
			o.toGoal = o.b.NearestGoal()
		}
		return o.toGoal, sokoban.None
	}
	return o.b.PullFrom(end.BoxSquares()), o.b.Next(next.Box, next.Dir^1)
}

// boundOf is the searches' bound of p: the sum of toGo over its boxes.
func boundOf(toGo []int32, p *sokoban.Position) int64 {
	h := int64(0)
	for _, s := range p.BoxSquares() {
		h += int64(toGo[s])
	}
	return h
}

const noParent = ^uint32(0)

// graph is the search's table of positions: packed with the player's exact
// square, each with its parent, the push that reached it, its cost so far
// and whether it is closed; and the open list, a binary heap on f.
type graph struct {
	store  *sokoban.Store
	parent []uint32
	via    []sokoban.Push
	cost   []int64
	closed []bool
	open   openList
}

// reset empties the graph for a new search on b, keeping its memory; the
// zero graph allocates on first use.
func (g *graph) reset(b *sokoban.Board) *graph {
	if g.store == nil {
		g.store = sokoban.NewStore(b.KeySize())
	}
	g.store.Reset()
	g.parent, g.via, g.cost, g.closed, g.open = g.parent[:0], g.via[:0], g.cost[:0], g.closed[:0], g.open[:0]
	return g
}

// add stores a position the first time it is reached.
func (g *graph) add(parent uint32, m sokoban.Push, c int64) {
	g.parent = append(g.parent, parent)
	g.via = append(g.via, m)
	g.cost = append(g.cost, c)
	g.closed = append(g.closed, false)
}

// relax records that position id, stored just now when fresh, is reached
// from parent by push m at cost it.g, and queues it when that is the
// cheapest way yet.
func (g *graph) relax(id uint32, fresh bool, parent uint32, m sokoban.Push, it item) {
	switch {
	case g.closed[id]:
		return
	case fresh:
	case it.g >= g.cost[id]:
		return
	default:
		g.parent[id], g.via[id], g.cost[id] = parent, m, it.g
	}
	g.open.push(it)
}

// path returns the pushes from the root to id.
func (g *graph) path(id uint32) []sokoban.Push {
	var out []sokoban.Push
	for ; g.parent[id] != noParent; id = g.parent[id] {
		out = append(out, g.via[id])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// bytes returns the memory the graph's positions take: per position its
// packed key, hash and slot in the store (a quarter of the slots free) and
// its parent, push, cost and closed flag; and the open list. It counts what
// the search holds now, not the capacity kept from earlier searches (see
// reset), which the memory budget bounded when they ran.
func (g *graph) bytes() int64 {
	n := int64(len(g.parent))
	perKey := int64(len(g.store.Key(0))) + 8 + 6
	return n*(perKey+4+8+8+1) + 24*int64(len(g.open))
}

// item is an open position: its cost so far g and f = g + its bound.
type item struct {
	f, g int64
	id   uint32
}

// openList is a binary heap of items, smallest f first.
type openList []item

func (h *openList) push(it item) {
	q := append(*h, it)
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if q[p].f <= q[i].f {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
	*h = q
}

func (h *openList) pop() item {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && q[c+1].f < q[c].f {
			c++
		}
		if q[i].f <= q[c].f {
			break
		}
		q[i], q[c] = q[c], q[i]
		i = c
	}
	*h = q
	return top
}

// walker measures player walks by breadth-first search over the floor.
// Each search marks the boxes reached with no walk (-1), so that a step
// looks at one mark and not at the boxes too.
type walker struct {
	b     *sokoban.Board
	seen  sokoban.Marks // the squares the last search reached, and the boxes
	dist  []int32       // the walk to a square seen; -1 on a box
	queue []sokoban.Square
}

func newWalker(b *sokoban.Board) walker {
	return walker{b: b, seen: sokoban.NewMarks(b.N), dist: make([]int32, b.N), queue: make([]sokoban.Square, 0, b.N)}
}

// fill measures the walks from p's player to every square.
func (w *walker) fill(p *sokoban.Position) { w.bfs(p, sokoban.None) }

// at returns the walk to s measured by the last fill, or -1 when s cannot
// be reached.
func (w *walker) at(s sokoban.Square) int32 {
	if !w.seen.Has(int32(s)) {
		return -1
	}
	return w.dist[s]
}

// distance returns the length of a shortest walk from p's player to target,
// or a length no solution can have when target cannot be reached.
func (w *walker) distance(p *sokoban.Position, target sokoban.Square) int {
	w.bfs(p, target)
	if d := w.at(target); d >= 0 {
		return int(d)
	}
	return costScale / 4
}

func (w *walker) bfs(p *sokoban.Position, target sokoban.Square) {
	w.seen.Clear()
	seen, dist := w.seen, w.dist
	for _, s := range p.BoxSquares() {
		seen.Add(int32(s))
		dist[s] = -1
	}
	start := p.Player()
	w.queue = append(w.queue[:0], start)
	seen.Add(int32(start))
	dist[start] = 0
	for head := 0; head < len(w.queue); head++ {
		s := w.queue[head]
		if s == target {
			return
		}
		for _, n := range w.b.Neighbours(s) {
			if n != sokoban.None && !seen.Has(int32(n)) {
				seen.Add(int32(n))
				dist[n] = dist[s] + 1
				w.queue = append(w.queue, n)
			}
		}
	}
}
