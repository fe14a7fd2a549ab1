package fess

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"time"
	"unsafe"

	"soko/deadlock"
	"soko/heuristic"
	"soko/internal/chunked"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// Node states.
const (
	generated uint8 = iota // stored, waiting in its cell
	expanded               // its moves generated
	dead                   // found deadlocked when it came up for expansion
)

// node is one position of the search tree, generated as a child of parent
// by move; its id is its id in the store.
type node struct {
	parent uint32
	move   Macro
	weight int32 // accumulated move weight from the root (issue 12 §3)
	sub    int32 // expansions in its subtree, itself included
	cell   int32 // the cell of the best feature vector on its path
	feat   features
	state  uint8
}

const noParent = ^uint32(0)

// cell is one point of the feature space: the nodes whose best feature
// vector on their path is key, waiting to be expanded, lightest first.
type cell struct {
	key  cellKey
	wait entries
}

// entry is a node waiting in a cell; key orders the cell's nodes: the
// accumulated weight first, then the node's own features.
type entry struct {
	key uint64
	id  uint32
}

type entries []entry

func (h entries) Len() int { return len(h) }
func (h entries) Less(i, j int) bool {
	return h[i].key < h[j].key || (h[i].key == h[j].key && h[i].id > h[j].id)
}
func (h entries) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entries) Push(x any)   { *h = append(*h, x.(entry)) }
func (h *entries) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// engine is one FESS search of one level.
type engine struct {
	b        *sokoban.Board
	pos      *sokoban.Position
	dead     []bool
	near     []int32 // pushes from each square to the nearest goal
	gen      *macroGen
	plan     *plan
	feat     *featurer
	checker  *deadlock.Checker // the cheap tier, when moves are generated
	corrals  *deadlock.Corrals // the expensive tier, when a node comes up
	frozen   *deadlock.FrozenGoals
	patterns *deadlock.Patterns // learned from subtrees (issue 12 §4)
	spare    *sokoban.Position  // scratch, for learning
	matching *heuristic.PushMatching
	store    *sokoban.Store
	nodes    chunked.Slice[node]
	cells    []cell
	cellOf   map[cellKey]int32
	fresh    []int32 // cells not yet visited by the round robin
	rr       int     // the round robin's next cell
	best     int32   // the best cell so far
	turn     uint64
	piCorral bool
	opener   bool // the opener advisor is on
	// focusAlways and focusLast make the engine focus (focusing): always,
	// or on the ending share of its budget.
	focusAlways, focusLast bool
	imagine                bool // the imagine strategy: pack towards the imagined board
	pair                   bool // of a node's two moves the better weighs 0
	park                   bool // the park strategy: follow the parking plan (park.go)
	parked                 bool // the parking search found a position to start from
	// replanned is set when the plan came from the backward search
	// (replan).
	replanned bool
	backPlan  bool // replan every level, not only where peeling failed

	// The backward search (issue 12 §5), nil when off; it gets backShare
	// of the expansions while it holds less than backMemory bytes.
	back       *backward
	parking    *parkSearch // the park strategy's parking search, while it runs
	backShare  float64
	backMemory int64
	budget     solver.Budget
	meeting    meeting

	guard  *solver.Guard
	stats  solver.Stats
	static int64
	key    []byte
	moves  []Macro
	sorted []sokoban.Square // the boxes of the node being expanded, sorted
	keys   keyer
	hashes []uint64 // the children's, for touchChildren
	kids   []child
	fired  [numDetectors]uint64
}

// Detectors counted by the engine, besides the checker's.
const (
	detMatching = iota
	detCorral
	detFrozen
	detPattern
	detSubtree
	numDetectors
)

// child is a move of the node being expanded, with what it leads to.
type child struct {
	move   Macro
	id     uint32
	feat   features
	weight int32
}

// newEngine builds the static tables of a search of l under the guard. A
// nil engine with a status means the budget ran out (or the level is
// impossible) before the search could start.
func newEngine(l *level.Level, guard *solver.Guard, opts solver.Options) (*engine, solver.Status, error) {
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, 0, err
	}
	e := &engine{b: b, guard: guard, store: sokoban.NewStore(b.KeySize()), cellOf: map[cellKey]int32{}}
	if e.piCorral, err = opts.Bool(piCorralParam); err != nil {
		return nil, 0, err
	}
	if e.backShare, err = opts.Real(backwardParam); err != nil {
		return nil, 0, err
	}
	if e.backPlan, err = opts.Bool(backPlanParam); err != nil {
		return nil, 0, err
	}
	e.backMemory = opts.Budget.Memory / 3
	e.budget = opts.Budget
	if b.Impossible != "" {
		return nil, solver.NoSolution, nil
	}
	if st, stop := e.charge(b.Bytes() + b.PullBytes()); stop {
		return nil, st, nil
	}
	setUp, cancel := guard.SetUp()
	defer cancel()
	dist, err := b.PullDistances(setUp)
	if err != nil {
		return e.setUpFailed(err)
	}
	e.dead = deadlock.DeadFromDistances(b, dist)
	e.near = nearestGoal(dist, b.N)
	e.matching = heuristic.NewPushMatching(b, dist)
	e.checker = deadlock.NewChecker(b, e.dead, deadlock.Detectors{Freeze: true, WallSegment: true})
	e.corrals = deadlock.NewCorrals(b, e.dead)
	e.frozen = deadlock.NewFrozenGoals(b, e.dead)
	e.patterns = deadlock.NewPatterns(b, e.corrals)
	e.spare = b.Start()
	e.gen = newMacroGen(b, e.dead)
	if e.gen.macros, err = deadlock.NewMacros(setUp, b); err != nil {
		return e.setUpFailed(err)
	}
	if st, stop := e.charge(e.matching.Bytes() + e.checker.Bytes() + e.gen.bytes() + e.gen.macros.Bytes() + 8*int64(b.N)); stop {
		return nil, st, nil
	}
	planGen := newMacroGen(b, nil)
	if e.plan, err = newPlan(setUp, b, planGen); err != nil {
		return e.setUpFailed(err)
	}
	e.feat = newFeaturer(b, e.plan, dist, e.near)
	if e.feat.hot, err = newHotspots(setUp, b); err != nil {
		return e.setUpFailed(err)
	}
	if st, stop := e.charge(e.plan.bytes() + e.feat.bytes() + e.feat.hot.bytes() + 16*int64(b.N)); stop {
		return nil, st, nil
	}
	e.pos = b.Start()
	e.keys = newKeyer(b)
	return e, solver.Solved, nil
}

func (e *engine) setUpFailed(err error) (*engine, solver.Status, error) {
	if st, ok := solver.Stopped(err); ok {
		return nil, st, nil
	}
	return nil, 0, err
}

// charge counts n more bytes of static tables and checks the budget.
func (e *engine) charge(n int64) (solver.Status, bool) {
	e.static += n
	return e.tick()
}

func (e *engine) tick() (solver.Status, bool) {
	e.stats.Bytes = e.bytes()
	return e.guard.Tick(&e.stats)
}

func (e *engine) bytes() int64 {
	n := e.static + e.store.Bytes() + int64(e.nodes.Cap())*int64(unsafe.Sizeof(node{})) + int64(len(e.cells))*64
	if e.frozen != nil {
		n += e.frozen.Bytes()
	}
	if e.patterns != nil {
		n += e.patterns.Bytes()
	}
	if e.back != nil {
		n += e.back.bytes()
	}
	if e.parking != nil {
		n += e.parking.bytes()
	}
	for i := range e.cells {
		n += 16 * int64(cap(e.cells[i].wait))
	}
	return n
}

// run searches until a solution, the end of the graph or the budget.
func (e *engine) run() (solver.Result, error) {
	if _, isDead := e.checker.CheckPosition(e.pos); isDead || !e.feasible() {
		return e.stop(solver.NoSolution), nil
	}
	if e.imagine {
		if res, done, err := e.imagineBoard(); done {
			return res, err
		}
	}
	if e.park {
		if res, done, err := e.parkPlan(); done {
			return res, err
		}
	}
	if (!e.plan.peeled || e.backPlan) && !e.feat.onGoals && !e.imagine && e.feat.park == nil {
		if res, done, err := e.replan(); done {
			return res, err
		}
	}
	f, canon := e.feat.of(e.pos)
	e.sortBoxes()
	root, _ := e.store.Intern(e.keyOf(sokoban.None, sokoban.None, canon))
	e.nodes.Append(node{parent: noParent, feat: f, cell: e.cellFor(f.cell())})
	e.best = e.at(root).cell
	e.stats.Stored = 1
	e.guard.Best(e.drawBest)
	e.guard.Describe(func() string {
		k := e.cells[e.best].key
		return fmt.Sprintf("packed %d of %d, regions %d, out of plan %d, hotspots %d",
			k.packed, len(e.b.Goals()), k.conn, k.oop, k.hot)
	})
	if e.pos.Solved() {
		return e.solution(root, nil)
	}
	if e.back != nil {
		if bid, ok := e.back.store.Find(e.keyOf(sokoban.None, sokoban.None, canon)); ok {
			e.meeting = meeting{forward: root, backward: bid, ok: true}
			return e.met()
		}
	}
	if e.backShare > 0 && e.back == nil {
		e.back = newBackward(e)
	}
	if res, done, err := e.expand(root); done {
		return res, err
	}
	for {
		if st, stop := e.tick(); stop {
			return e.stop(st), nil
		}
		if e.backward() {
			return e.met()
		}
		id, ok := e.next()
		if !ok {
			return e.stop(solver.NoSolution), nil
		}
		e.pos.Unpack(e.store.Key(id))
		if !e.alive(id) {
			e.at(id).state = dead
			continue
		}
		if res, done, err := e.expand(id); done {
			return res, err
		}
	}
}

// next picks the node to expand: turns alternate between the best cell
// and a round robin over all cells, where a cell not yet visited comes
// first (issue 12 §3). When the best cell has no node waiting (all
// expanded, or found dead when they came up), its turns go to the round
// robin too, unless the engine is focusing (focusing): then they go to
// the best cell that has nodes waiting. Within a cell the lightest node
// comes first.
func (e *engine) next() (uint32, bool) {
	for tries := 0; ; tries++ {
		e.turn++
		var c int32 = -1
		if e.turn%2 == 0 {
			if len(e.cells[e.best].wait) > 0 {
				c = e.best
			} else if e.focusing() {
				c = e.bestWaiting()
			}
		}
		if c < 0 {
			c = e.roundRobin()
		}
		if c < 0 {
			return 0, false
		}
		wait := &e.cells[c].wait
		for wait.Len() > 0 {
			en := heap.Pop(wait).(entry)
			nd := e.at(en.id)
			if nd.state != generated || int32(en.key>>48) != nd.weight || nd.cell != c {
				continue // stale: expanded, or queued again lighter or elsewhere
			}
			return en.id, true
		}
	}
}

// focusAlways and focusEnding say when an engine focuses (next): the goals
// and dive strategies always, the plan strategy (and its opener and pair
// variants) on the last focusEnding of its budget (time, or expansions
// under a node limit), once the broad search has had its time. Measured
// side by side on XSokoban's 90 at 10 s (a quiet machine, two runs at a
// time): with no focusing the portfolio solved 71; with goals focusing
// 72 (XSokoban 72, in a tenth of a second of goals); with plan focusing
// on its last quarter too 73 (15 and 35, never solved before, for 44,
// which plan solves at 7.7 s otherwise); on its first quarter instead also 73 (15, 35, 44 and 74
// within 4 s, but not 10 and 76, lost at 60 s too, with 87: the focused
// opening spoils them at any budget, where at 60 s the last quarter
// solved 10, 87 and 15 and lost 35). Plan focusing all the time: 71 (15,
// 35, 72 and 74 for 10, 31, 70 and 76); on its first fifth or first 30 %:
// 72; on its first quarter and last fifth: 71. Imagine focusing changed
// nothing. So the focused opening runs apart, on a tree of its own: the
// dive strategy, on 6 % of the budget before plan (which keeps 70 %).
const focusEnding = 0.25

// focusing reports whether the best cell's turns go to the best cell with
// nodes waiting when the best cell has none (next).
func (e *engine) focusing() bool {
	switch {
	case e.focusAlways:
		return true
	case !e.focusLast:
		return false
	case e.budget.Time > 0:
		return e.guard.Elapsed() >= time.Duration((1-focusEnding)*float64(e.budget.Time))
	case e.budget.Nodes > 0:
		return float64(e.stats.Expanded) >= (1-focusEnding)*float64(e.budget.Nodes)
	}
	return false
}

// bestWaiting returns the best cell that has nodes waiting, or -1 when
// none has.
func (e *engine) bestWaiting() int32 {
	c := int32(-1)
	for i := range e.cells {
		if len(e.cells[i].wait) > 0 && (c < 0 || e.cells[i].key.better(e.cells[c].key)) {
			c = int32(i)
		}
	}
	return c
}

// roundRobin returns the next cell with nodes waiting, or -1 when none has.
func (e *engine) roundRobin() int32 {
	for len(e.fresh) > 0 {
		c := e.fresh[0]
		e.fresh = e.fresh[1:]
		if len(e.cells[c].wait) > 0 {
			return c
		}
	}
	for range len(e.cells) {
		c := int32(e.rr % len(e.cells))
		e.rr++
		if len(e.cells[c].wait) > 0 {
			return c
		}
	}
	return -1
}

// cellFor returns the cell of key, creating it.
func (e *engine) cellFor(k cellKey) int32 {
	if c, ok := e.cellOf[k]; ok {
		return c
	}
	c := int32(len(e.cells))
	e.cells = append(e.cells, cell{key: k})
	e.cellOf[k] = c
	e.fresh = append(e.fresh, c)
	return c
}

// at returns node id.
func (e *engine) at(id uint32) *node { return e.nodes.At(int(id)) }

// alive runs the expensive deadlock tier on the node about to be expanded
// (in e.pos): the corral search around the box the move left, boxes cut
// off by boxes frozen on goals, and the matching of boxes to goals.
func (e *engine) alive(id uint32) bool {
	nd := e.at(id)
	if nd.parent == noParent {
		return true
	}
	if e.patterns.Len() > 0 {
		if e.patterns.Match(e.pos) {
			e.fired[detPattern]++
			return false
		}
		if e.deadAbove(id) {
			e.fired[detSubtree]++
			return false
		}
	}
	if e.corrals.DeadAfterPush(e.pos, nd.move.To) {
		e.fired[detCorral]++
		return false
	}
	if e.frozen.Dead(e.pos) {
		e.fired[detFrozen]++
		return false
	}
	if !e.feasible() {
		e.fired[detMatching]++
		return false
	}
	return true
}

// feasible reports whether every box can be matched to its own goal.
func (e *engine) feasible() bool {
	_, ok := e.matching.Bound(e.pos)
	return ok
}

// expand generates the macro-moves of node id (in e.pos), scores the
// children, weighs them with the advisors and queues the new ones. done is
// set when a child solves the level.
func (e *engine) expand(id uint32) (res solver.Result, done bool, err error) {
	e.at(id).state = expanded
	e.stats.Expanded++
	e.learn(id)
	parent := *e.at(id)
	p := e.pos
	p.Reach()
	boxes := p.BoxSquares()
	movers := boxes
	if e.piCorral {
		if barrier := e.corrals.PICorral(p, nil); len(barrier) > 0 {
			movers = barrier
		}
	}
	e.sortBoxes()
	e.gen.place(boxes)
	e.moves = e.moves[:0]
	for i := range movers {
		if i%16 == 15 {
			if st, stop := e.guard.Check(&e.stats); stop {
				e.gen.lift(boxes)
				return e.stop(st), true, nil
			}
		}
		e.moves = e.gen.generate(p, movers[i], e.moves)
	}
	e.gen.lift(boxes)
	player := p.Player()
	e.feat.prepare(p)
	e.touchChildren()
	e.kids = e.kids[:0]
	for _, m := range e.moves {
		p.Relocate(m.From, m.To, e.b.Next(m.To, m.Side))
		e.stats.Generated++
		if e.checker.Deadlocked(p, m.To) {
			p.Relocate(m.To, m.From, player)
			continue
		}
		f := e.feat.child(p, int(parent.feat.conn+m.regions), m.From, m.To)
		key, hash := e.keyOf(m.From, m.To, m.canon)
		cid, isNew := e.store.Intern(key, hash)
		if isNew {
			e.stats.Stored++
			e.nodes.Append(node{parent: id, move: m, feat: f, weight: -1})
			if p.Solved() {
				return e.finish(cid, nil), true, nil
			}
			if e.back != nil {
				if bid, ok := e.back.store.Find(key, hash); ok {
					p.Relocate(m.To, m.From, player)
					e.meeting = meeting{forward: cid, backward: bid, ok: true}
					res, err := e.met()
					return res, true, err
				}
			}
		}
		if e.at(cid).state == generated {
			e.kids = append(e.kids, child{move: m, id: cid, feat: e.at(cid).feat, weight: 1})
		}
		p.Relocate(m.To, m.From, player)
		if len(e.kids)%64 == 63 {
			if st, stop := e.guard.Check(&e.stats); stop {
				return e.stop(st), true, nil
			}
		}
	}
	e.advise(parent.feat)
	for _, k := range e.kids {
		w := parent.weight + k.weight
		nd := e.at(k.id)
		if nd.weight >= 0 && nd.weight <= w {
			continue // already queued at least as light
		}
		if nd.weight >= 0 {
			nd.parent, nd.move = id, k.move
		}
		nd.weight = w
		key := parent.feat.cell()
		if ck := k.feat.cell(); ck.better(key) {
			key = ck
		}
		if pk := e.cells[parent.cell].key; pk.better(key) {
			key = pk
		}
		nd.cell = e.cellFor(key)
		if e.cells[nd.cell].key.better(e.cells[e.best].key) {
			e.best = nd.cell
		}
		heap.Push(&e.cells[nd.cell].wait, entry{key: uint64(w)<<48 | k.feat.order(), id: k.id})
	}
	return solver.Result{}, false, nil
}

// learnAt is the size of a subtree, in expansions, at which the engine
// looks for a deadlock pattern in the subtree's root, as Festival does at
// 64 (the FESS paper; README, References). At 32 and 128 the portfolio
// solved 69 and 67 of XSokoban's 90 at 10 s, at 64 70 (commit d135b89).
const learnAt = 64

// learn counts the expansion of id in the subtrees of its ancestors, and
// looks for a deadlock pattern (deadlock.Patterns) in each ancestor whose
// subtree has just grown to learnAt expansions without solving the level.
// A pattern found there proves that ancestor dead, and with it every node
// below it (deadAbove) and every later node that holds the pattern, which
// alive then finds.
func (e *engine) learn(id uint32) {
	for a := id; a != noParent; a = e.at(a).parent {
		nd := e.at(a)
		nd.sub++
		if nd.sub > learnAt {
			return // it had its turn, and every subtree above it too
		}
		if nd.sub < learnAt || nd.parent == noParent {
			continue
		}
		e.spare.Unpack(e.store.Key(a))
		if e.patterns.Learn(e.spare) {
			nd.state = dead
		}
	}
}

// deadAbove reports whether an ancestor of node id was proved dead (by a
// pattern learned in it): every position below a dead one is dead too.
func (e *engine) deadAbove(id uint32) bool {
	for a := e.at(id).parent; a != noParent; a = e.at(a).parent {
		if e.at(a).state == dead {
			return true
		}
	}
	return false
}

// touchChildren loads the store's slots for the children of e.moves
// before they are interned (sokoban.Store.Touch), so that their cache
// misses overlap: a child's hash is its parent's boxes' with the moved box's
// square changed, and its canonical player's (keyer.pack).
func (e *engine) touchChildren() {
	boxes := uint64(0)
	for _, s := range e.sorted {
		boxes ^= e.keys.zBox[s]
	}
	e.hashes = e.hashes[:0]
	for _, m := range e.moves {
		e.hashes = append(e.hashes, boxes^e.keys.zBox[m.From]^e.keys.zBox[m.To]^e.keys.zPlayer[m.canon])
	}
	e.store.Touch(e.hashes)
}

// sortBoxes sorts the box squares of e.pos into e.sorted, for keyOf.
func (e *engine) sortBoxes() {
	e.sorted = append(e.sorted[:0], e.pos.BoxSquares()...)
	slices.Sort(e.sorted)
}

// keyOf packs a child of e.pos, where the box on from went to to and the
// player's canonical square is canon (keyer.pack), with from None e.pos
// itself. e.sorted holds e.pos's boxes, sorted.
func (e *engine) keyOf(from, to, canon sokoban.Square) ([]byte, uint64) {
	key, hash := e.keys.pack(e.key, e.sorted, from, to, canon)
	e.key = key
	return key, hash
}

// advise gives weight 0 to the moves the advisors propose (issue 12 §3),
// each at most one and only when it improves on the parent: the pack
// advisor the move that packs the most boxes along the plan, the
// out-of-plan advisor the one that leaves the fewest boxes out of plan,
// the hotspot advisor the one that leaves the fewest hotspots; in the
// opener strategy also the opener, the one that brings a box nearest the
// plan's next goal, and the connectivity advisor, the one that joins the
// most player regions. Ties go to the better features. A lone move is free
// too. Measured at 4,000 expansions on XSokoban, the connectivity advisor
// cost plan FESS two levels (it finds Microban 139 with the opener) and
// one for the distance to the goals eleven.
func (e *engine) advise(parent features) {
	if len(e.kids) == 1 {
		e.kids[0].weight = 0
		return
	}
	if e.pair && len(e.kids) == 2 {
		better := 0
		if e.kids[1].feat.order() < e.kids[0].feat.order() {
			better = 1
		}
		e.kids[better].weight = 0
	}
	advisors := [...]func(f features) int{
		func(f features) int { return int(parent.packed - f.packed) },
		func(f features) int { return int(f.oop - parent.oop) },
		func(f features) int { return int(f.hot - parent.hot) },
		func(f features) int {
			if !e.opener {
				return 0
			}
			return int(f.conn - parent.conn)
		},
		func(f features) int {
			if !e.opener || f.packed != parent.packed {
				return 0
			}
			return int(f.next - parent.next)
		},
	}
	for _, gain := range advisors {
		best, bestGain := -1, 0
		for i, k := range e.kids {
			g := gain(k.feat)
			if g < bestGain || (g == bestGain && best >= 0 && k.feat.order() < e.kids[best].feat.order()) {
				best, bestGain = i, g
			}
		}
		if best >= 0 {
			e.kids[best].weight = 0
		}
	}
}

// imagineShare is the share of its budget the imagine strategy gives its
// backward search, as Festival gives a third to the backward phase of its
// strategies (the FESS paper; README, References); imagineNodes bounds
// that search when there is neither a time nor a node limit.
const (
	imagineShare = 1.0 / 3
	imagineNodes = 20_000
)

// imagineBoard runs the backward search alone on its share of the budget
// and takes the position with the fewest boxes left on goals other than
// start squares (backward.off) as the imagined board the forward search
// then packs towards, with the backward store kept for meeting it
// (Festival's HF strategy). done is set when the budget runs out.
func (e *engine) imagineBoard() (res solver.Result, done bool, err error) {
	// The forward store is still empty, so the halves cannot meet yet:
	// run checks the start against the backward store afterwards.
	bk := newBackward(e)
	e.back = bk
	for e.backwardLeft(imagineShare, imagineNodes) {
		if st, stop := e.tick(); stop {
			return e.stop(st), true, nil
		}
		if _, more := bk.step(); !more {
			break
		}
		e.stats.Expanded++
	}
	q := e.b.Start()
	q.Unpack(bk.store.Key(bk.off))
	target := make([]bool, e.b.N)
	for _, s := range q.BoxSquares() {
		target[s] = true
	}
	e.feat.target, e.feat.targetDist = target, e.b.PullFrom(q.BoxSquares())
	return solver.Result{}, false, nil
}

// replanShare is the share of its budget a plan strategy gives the backward
// search that replaces a plan taken greedily (replan); replanNodes bounds
// that search when there is neither a time nor a node limit.
const (
	replanShare = 0.1
	replanNodes = 5_000
)

// replan replaces a plan whose goals could not all be peeled in turn (plan
// peeled false; 12 of XSokoban's 90 levels) by the order in which the
// backward search fills the goals on its way to the position with the
// fewest boxes left on goals, as Festival takes its parking plan from its
// backward search (the FESS paper; README, References). Peeling pulls each
// box from its goal straight to a start square with the other goals'
// boxes as walls; the backward search moves boxes more than once, so it
// finds orders such as XSokoban 44's, whose goal room fills only if boxes
// pass over goals filled later. It stops at the first position with no
// box on a goal but start squares; when its share of the budget runs out
// before, the plan stays as it was. Either way its store stays for the
// forward search to meet. done is set when the whole budget runs out.
func (e *engine) replan() (res solver.Result, done bool, err error) {
	bk := newBackward(e)
	e.back = bk
	for e.backwardLeft(replanShare, replanNodes) && bk.offRank>>32 > 0 {
		if st, stop := e.tick(); stop {
			return e.stop(st), true, nil
		}
		if _, more := bk.step(); !more {
			break
		}
		e.stats.Expanded++
	}
	if bk.offRank>>32 > 0 {
		// Boxes left on goals: the order would take those goals first
		// whatever it costs (XSokoban 87 packed 5 boxes of 12 at 30 s
		// that way, 7 with the greedy order).
		return solver.Result{}, false, nil
	}
	setUp, cancel := e.guard.SetUp()
	defer cancel()
	pl, err := orderedPlan(setUp, e.b, newMacroGen(e.b, nil), bk.fillOrder(bk.off, e.plan.order), 0)
	if err != nil {
		if st, ok := solver.Stopped(err); ok {
			return e.stop(st), true, nil
		}
		return solver.Result{}, true, err
	}
	e.plan = pl
	e.feat.setPlan(pl)
	e.replanned = true
	return solver.Result{}, false, nil
}

// backwardLeft reports whether a backward search run alone first (replan,
// imagine) still has budget: share of the strategy's time or node budget,
// or nodes expansions without either.
func (e *engine) backwardLeft(share float64, nodes int64) bool {
	b := e.budget
	switch {
	case b.Time <= 0 && b.Nodes <= 0:
		return e.back.expanded < nodes
	case b.Time > 0 && e.guard.Elapsed() >= time.Duration(float64(b.Time)*share):
		return false
	case b.Nodes > 0 && float64(e.stats.Expanded) >= float64(b.Nodes)*share:
		return false
	}
	return true
}

// backward runs the backward search's share of expansions before the next
// forward one, and reports whether the searches met.
func (e *engine) backward() bool {
	bk := e.back
	if bk == nil {
		return false
	}
	for float64(bk.expanded) < e.backShare*float64(e.stats.Expanded) {
		if e.backMemory > 0 && bk.bytes() > e.backMemory {
			return false
		}
		met, more := bk.step()
		if met {
			return true
		}
		if !more {
			return false
		}
		e.stats.Expanded++
	}
	return false
}

// met ends the search with the solution through the meeting: the forward
// path to the position both searches stored, then the backward path from
// it undone.
func (e *engine) met() (solver.Result, error) {
	tail := e.back.pushes(e.meeting.backward)
	if tail == nil {
		return solver.Result{}, fmt.Errorf("%s: pull macro-move lost on replay", e.b.Level.Name())
	}
	return e.solution(e.meeting.forward, tail)
}

// finish ends the search with the solution reaching id, then tail.
func (e *engine) finish(id uint32, tail []sokoban.Push) solver.Result {
	res, err := e.solution(id, tail)
	if err != nil {
		panic(err) // a macro-move that cannot be replayed: a broken invariant
	}
	return res
}

// solution replays the macro-moves from the root to id, appends tail and
// expands the pushes into moves.
func (e *engine) solution(id uint32, tail []sokoban.Push) (solver.Result, error) {
	var path []Macro
	for ; e.at(id).parent != noParent; id = e.at(id).parent {
		path = append(path, e.at(id).move)
	}
	p := e.b.Start()
	var pushes []sokoban.Push
	for i := len(path) - 1; i >= 0; i-- {
		e.gen.place(p.BoxSquares())
		steps := e.gen.path(p, path[i])
		e.gen.lift(p.BoxSquares())
		if steps == nil {
			return solver.Result{}, fmt.Errorf("%s: macro-move %d lost on replay", e.b.Level.Name(), len(path)-i)
		}
		for _, m := range steps {
			p.Apply(m)
		}
		pushes = append(pushes, steps...)
	}
	pushes = append(pushes, tail...)
	e.finishStats()
	moves, err := e.b.Expand(pushes)
	if err != nil {
		return solver.Result{}, fmt.Errorf("%s: %w", e.b.Level.Name(), err)
	}
	return solver.Result{Status: solver.Solved, Moves: moves, Pushes: len(pushes), Stats: e.stats}, nil
}

// stop ends the search with a status other than Solved.
func (e *engine) stop(st solver.Status) solver.Result {
	e.finishStats()
	return solver.Result{Status: st, Stats: e.stats}
}

// finishStats stamps the memory, the time and the engine's own counters
// (issue 12 §7): cells found, the best cell's features, macro-moves
// generated, and positions found dead by each detector.
func (e *engine) finishStats() {
	e.stats.Bytes = max(e.stats.Bytes, e.bytes())
	e.guard.Finish(&e.stats)
	e.stats.Counts = map[string]int64{
		"cells":            int64(len(e.cells)),
		"boxes":            int64(e.b.Boxes()),
		"macro_moves":      e.stats.Generated,
		"dead.corral":      int64(e.fired[detCorral]),
		"dead.frozengoals": int64(e.fired[detFrozen]),
		"dead.matching":    int64(e.fired[detMatching]),
		"dead.pattern":     int64(e.fired[detPattern]),
		"dead.subtree":     int64(e.fired[detSubtree]),
		"patterns":         int64(e.patterns.Len()),
		"patterns.tried":   int64(e.patterns.Tried),
	}
	if bk := e.back; bk != nil {
		e.stats.Counts["backward.expanded"] = bk.expanded
		e.stats.Counts["backward.stored"] = int64(bk.store.Len())
		if e.replanned {
			e.stats.Counts["replanned"] = 1
		}
		if e.meeting.ok {
			e.stats.Counts["met"] = 1
		}
	}
	if pk := e.feat.park; pk != nil {
		e.stats.Counts["parking.entries"] = int64(len(pk.entries))
		if e.parked {
			e.stats.Counts["parking.complete"] = 1
		}
	}
	if len(e.cells) > 0 {
		best := e.cells[e.best].key
		e.stats.Counts["best.packed"] = int64(best.packed)
		e.stats.Counts["best.regions"] = int64(best.conn)
		e.stats.Counts["best.outofplan"] = int64(best.oop)
		e.stats.Counts["best.hotspots"] = int64(best.hot)
	}
	for k := deadlock.Kind(0); k < deadlock.NumKinds; k++ {
		if e.checker.On.On(k) {
			e.stats.Counts["dead."+k.String()] = int64(e.checker.Fired[k])
		}
	}
}

// drawBest draws a node of the best cell, for progress events.
func (e *engine) drawBest() []string {
	for id := e.nodes.Len() - 1; id >= 0; id-- {
		if e.at(uint32(id)).cell == e.best {
			q := e.b.Start()
			q.Unpack(e.store.Key(uint32(id)))
			return q.Rows()
		}
	}
	return nil
}

// use sets the engine up for strategy s: its advisors, what it counts as
// packed and when it focuses.
func (e *engine) use(s search) {
	e.opener, e.pair, e.imagine, e.park = s.opener, s.pair, s.imagine, s.park
	e.feat.onGoals = s.onGoals
	e.focusAlways = s.onGoals || s.dive
	e.focusLast = !e.focusAlways && !s.imagine
}

// solve runs one FESS search; opener switches the opener advisor on,
// onGoals counts boxes on goals in any order as packed.
func solve(ctx context.Context, l *level.Level, opts solver.Options, s search) (solver.Result, error) {
	guard := solver.NewGuard(ctx, opts)
	e, st, err := newEngine(l, guard, opts)
	if e != nil {
		e.use(s)
	}
	if err != nil {
		return solver.Result{}, err
	}
	if e == nil {
		res := solver.Result{Status: st}
		guard.Finish(&res.Stats)
		return res, nil
	}
	return e.run()
}
