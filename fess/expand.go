package fess

import (
	"soko/sokoban"
	"soko/solver"
)

// expansion is the scratch of one expansion: the macro-moves generated,
// and the children kept with what they lead to.
type expansion struct {
	moves []Macro
	kids  []child
}

// child is a move of the node being expanded, with what it leads to.
type child struct {
	move   Macro
	id     uint32
	feat   features
	order  uint64 // its rank within a cell (features.order)
	weight int32
	score  float32 // the learned guide's, when it is on
	cost   uint8   // −log2 of its probability under the guide, whole bits (engine.guideCost)
}

// How often an expansion (forward, or of the parking search) looks at the
// clock: after every checkBoxes boxes whose moves it generated and every
// checkMoves moves it kept or made, since one expansion of a board with
// hundreds of boxes can take longer than the time left.
const (
	checkBoxes = 16
	checkMoves = 64
)

// expand generates the macro-moves of node id (in e.pos), scores the
// children, weighs them with the advisors and queues the new ones. done is
// set when a child solves the level.
func (e *engine) expand(id uint32) (res solver.Result, done bool, err error) {
	if e.tr != nil {
		e.tr.expanding(e, id)
	}
	e.tree.at(id).state = expanded
	e.stats.Expanded++
	e.tier.learn(&e.tree, id)
	parent := *e.tree.at(id)
	p := e.pos
	x := &e.exp
	var st solver.Status
	var stop bool
	if x.moves, st, stop = e.movesOf(p, x.moves[:0]); stop {
		return e.stop(st), true, nil
	}
	e.tree.sortBoxes(p)
	player := p.Player()
	e.feat.prepare(p)
	e.tree.touch(x.moves)
	x.kids = x.kids[:0]
	for _, m := range x.moves {
		p.Relocate(m.From, m.To, e.b.Next(m.To, m.Side))
		e.stats.Generated++
		// Only a new child meets the cheap detectors. A stored one passed
		// them when it was first generated; they look around the box that
		// moved, so this move could show a deadlock that one did not, but
		// the child is in the tree either way (docs/measurements.md).
		key, hash := e.tree.keyOf(m.From, m.To, m.canon)
		cid, known := e.tree.store.Find(key, hash)
		if !known {
			if e.tier.checker.Deadlocked(p, m.To) {
				p.Relocate(m.To, m.From, player)
				continue
			}
			cid, _ = e.tree.store.Intern(key, hash)
			e.stats.Stored++
			f := e.feat.child(p, int(parent.feat.conn+m.regions), m.From, m.To)
			e.tree.nodes.Append(node{parent: id, move: m, feat: f, weight: -1, depth: parent.depth + m.Pushes})
			if p.Solved() {
				return e.finish(cid, nil), true, nil
			}
			for _, bk := range [...]*backward{e.back, e.shared.back} {
				if bk == nil {
					continue
				}
				if bid, ok := bk.store.Find(key, hash); ok {
					p.Relocate(m.To, m.From, player)
					e.meeting = meeting{forward: cid, backward: bid, ok: true}
					if bk != e.back {
						e.meeting.from = bk
					}
					res, err := e.met()
					return res, true, err
				}
			}
			for _, t := range e.shared.tails {
				if tail, ok := t.Tail(key); ok {
					p.Relocate(m.To, m.From, player)
					e.metTail = true
					res, err := e.solution(cid, tail)
					return res, true, err
				}
			}
		} else {
			e.tree.reached(cid, id, m)
		}
		if nd := e.tree.at(cid); nd.state == generated {
			k := child{move: m, id: cid, feat: nd.feat, order: nd.feat.order(e.strat.farFirst), weight: 1}
			if e.guide != nil {
				k.score = e.guideScore(parent.move, m, parent.feat, nd.feat)
			}
			x.kids = append(x.kids, k)
		}
		p.Relocate(m.To, m.From, player)
		if len(x.kids)%checkMoves == checkMoves-1 {
			if st, stop := e.guard.Check(&e.stats); stop {
				return e.stop(st), true, nil
			}
		}
	}
	if e.guide != nil {
		e.guideCost(x.kids)
	}
	e.advise(x.kids, parent.feat)
	for _, k := range x.kids {
		e.place(id, &parent, k)
	}
	return solver.Result{}, false, nil
}

// movesOf appends to moves the macro-moves of p's boxes, only those of
// the boxes around a PI-corral when it has one and the pruning is on; stop
// is set, with the status, when the guard ends the search on the way.
func (e *engine) movesOf(p *sokoban.Position, moves []Macro) (_ []Macro, st solver.Status, stop bool) {
	p.Reach()
	boxes := p.BoxSquares()
	movers := boxes
	if e.par.piCorral {
		if barrier := e.tier.corrals.PICorral(p, nil); len(barrier) > 0 {
			movers = barrier
		}
	}
	e.gen.placeAll(boxes)
	defer e.gen.lift(boxes)
	start := len(moves)
	for i := range movers {
		if i%checkBoxes == checkBoxes-1 {
			if st, stop := e.guard.Check(&e.stats); stop {
				return moves, st, true
			}
		}
		moves = e.gen.generate(p, movers[i], moves)
	}
	return e.strat.moves.keep(e, p, moves, start), solver.Solved, false
}

// place queues child k of node id (whose node is parent) with its weight,
// unless it waits already at least as light: in the cell of the best
// features on its path, its own, its parent's or its parent's cell's.
func (e *engine) place(id uint32, parent *node, k child) {
	w := parent.weight + k.weight
	nd := e.tree.at(k.id)
	if nd.weight >= 0 && nd.weight <= w {
		return // already queued at least as light
	}
	if nd.weight >= 0 {
		e.tree.reparent(k.id, id, k.move)
	}
	nd.weight = w
	key := parent.feat.cell()
	if ck := k.feat.cell(); ck.better(key) {
		key = ck
	}
	if pk := e.queue.cells[parent.cell].key; pk.better(key) {
		key = pk
	}
	nd.cell = e.queue.cellFor(key)
	order := k.order
	if e.guide != nil {
		order = guidedOrder(order, k.cost)
	}
	e.queue.add(nd.cell, k.id, w, order)
	if e.tr != nil && e.queue.best != e.tr.best {
		e.tr.newBest(e, k.id)
	}
}
