package fess

import (
	"fmt"

	"soko/sokoban"
	"soko/solver"
)

// met ends the search with the solution through the meeting: the forward
// path to the position both searches stored (in the tree of the engine
// the meeting names, another strategy's for the back strategy), then the
// backward path from it undone (in the store the meeting names, the back
// strategy's for a forward one).
func (e *engine) met() (solver.Result, error) {
	bk := e.back
	if e.meeting.from != nil {
		bk = e.meeting.from
	}
	tail := bk.pushes(e.meeting.backward)
	if tail == nil {
		return solver.Result{}, fmt.Errorf("%s: pull macro-move lost on replay", e.b.Level.Name())
	}
	if short := bk.descend(e.gen, e.meeting.backward); short != nil && len(short) < len(tail) {
		tail = short
	}
	f := e
	if e.meeting.in != nil {
		f = e.meeting.in
	}
	head, err := f.pushesTo(e.meeting.forward)
	if err != nil {
		return solver.Result{}, err
	}
	return e.solved(append(head, tail...))
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
	pushes, err := e.pushesTo(id)
	if err != nil {
		return solver.Result{}, err
	}
	return e.solved(append(pushes, tail...))
}

// pushesTo replays the macro-moves from the root to id into pushes.
func (e *engine) pushesTo(id uint32) ([]sokoban.Push, error) {
	var path []Macro
	for l := e.tree.pathStep(id); l.parent != noParent; l = e.tree.pathStep(id) {
		path = append(path, l.move)
		id = l.parent
	}
	p := e.b.Start()
	var pushes []sokoban.Push
	for i := len(path) - 1; i >= 0; i-- {
		e.gen.place(p.BoxSquares())
		steps := e.gen.path(p, path[i])
		e.gen.lift(p.BoxSquares())
		if steps == nil {
			return nil, fmt.Errorf("%s: macro-move %d lost on replay", e.b.Level.Name(), len(path)-i)
		}
		for _, m := range steps {
			p.Apply(m)
		}
		pushes = append(pushes, steps...)
	}
	return pushes, nil
}

// solved ends the search with the solution pushes, expanded into moves.
func (e *engine) solved(pushes []sokoban.Push) (solver.Result, error) {
	e.finishStats()
	if e.tr != nil {
		e.tr.end(e, solver.Solved)
	}
	moves, err := e.b.Expand(pushes)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Result{Status: solver.Solved, Moves: moves, Pushes: len(pushes), Stats: e.stats}, nil
}

// stop ends the search with a status other than Solved.
func (e *engine) stop(st solver.Status) solver.Result {
	e.finishStats()
	if e.tr != nil {
		e.tr.end(e, st)
	}
	return solver.Result{Status: st, Stats: e.stats}
}

// finishStats stamps the memory, the time and the engine's own counters:
// cells found, the best cell's features, macro-moves generated, and
// positions found dead by each detector.
func (e *engine) finishStats() {
	e.stats.Bytes = max(e.stats.Bytes, e.bytes())
	e.stats.Elapsed = e.elapsed()
	t := &e.tier
	e.stats.Counts = map[string]int64{
		"cells":           int64(len(e.queue.cells)),
		"boxes":           int64(e.b.Boxes()),
		"macro_moves":     e.stats.Generated,
		"patterns":        int64(t.patterns.Len()),
		"patterns.tried":  int64(t.patterns.Tried),
		"patterns.seeded": int64(t.patterns.Seeded),
	}
	for k, n := range t.deadCounts() {
		e.stats.Counts["dead."+k] = n
	}
	if e.meeting.from != nil {
		e.stats.Counts["met.back"] = 1 // the back strategy's store
	}
	if e.metTail {
		e.stats.Counts["met.bigreedy"] = 1 // bigreedy's backward search
	}
	if bk := e.back; bk != nil {
		e.stats.Counts["backward.expanded"] = bk.expanded
		e.stats.Counts["backward.stored"] = int64(bk.store.Len())
		if e.replanned {
			e.stats.Counts["replanned"] = 1
		}
		if e.meeting.ok {
			e.stats.Counts["met"] = 1
			if e.meeting.in != nil {
				e.stats.Counts["met.other"] = 1 // another strategy's tree
			}
		}
	}
	if pk := e.feat.park; pk != nil {
		e.stats.Counts["parking.entries"] = int64(len(pk.entries))
		if e.parked {
			e.stats.Counts["parking.complete"] = 1
		}
		if e.pulled {
			e.stats.Counts["parking.pulled"] = 1
		}
	}
	if q := &e.queue; len(q.cells) > 0 {
		best := q.cells[q.best].key
		e.stats.Counts["best.packed"] = int64(best.packed)
		e.stats.Counts["best.regions"] = int64(best.conn)
		e.stats.Counts["best.outofplan"] = int64(best.oop)
		e.stats.Counts["best.hotspots"] = int64(best.hot)
	}
}

// drawBest draws the node that took the search to its best cell, for
// progress events.
func (e *engine) drawBest() []string {
	if e.tree.nodes.Len() == 0 {
		return nil
	}
	q := e.b.Start()
	q.Unpack(e.tree.store.Key(e.queue.first))
	return q.Rows()
}
