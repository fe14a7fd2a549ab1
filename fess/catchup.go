package fess

import (
	"slices"

	"soko/solver"
)

// With threads the rounds let a search read another member's store only
// while that member is paused (solver.Sharer), so a position both searches
// hold is not looked for when the later of the two stores it while the
// other runs. Each search keeps how far its positions were looked for in
// each store it meets (meets); when that store comes back into view
// (take, between two steps, both stores still), it looks for the rest at
// once, and a meeting found there ends its search before its next step
// (member.turn), as it would have at once with one thread. With one
// thread no store leaves the view while its reader searches, so these
// looks find nothing new: a store first seen is looked through once, from
// its reader's positions stored before (few: first slices).

// meets is how far a forward search's tree has been looked for in the
// back strategy's store (inBack: its positions below it) and the store in
// the tree (fromBack: the store's positions below it), and on any engine
// the solution of a meeting a look found, which its member returns before
// the next step.
type meets struct {
	inBack, fromBack uint32
	found            bool
	res              solver.Result
	err              error
}

// meet ends the search with the meeting at e.meeting, found by a look.
func (e *engine) meet() {
	e.meets.found = true
	e.meets.res, e.meets.err = e.met()
}

// take lets the forward search meet the back strategy's store from its
// next step on, and looks there for the positions it stored while the
// store was out of view.
func (e *engine) take(k knowledge) {
	e.shared.tails = k.tails
	if k.back == e.shared.back {
		return
	}
	s := e.tree.store
	if e.shared.back != nil {
		e.meets.inBack = uint32(s.Len())
	}
	e.shared.back = k.back
	bk := k.back
	if bk == nil || e.meets.found || s == nil {
		return
	}
	for id := e.meets.inBack; id < uint32(s.Len()); id++ {
		if bid, ok := bk.store.Find(s.Key(id), s.Hash(id)); ok {
			e.meeting = meeting{forward: id, backward: bid, ok: true, from: bk}
			e.meet()
			return
		}
	}
}

// take lets the backward search meet the forward strategies' trees from
// its next step on, and looks in each tree that comes into view for the
// positions it stored while the tree was out of view.
func (b backLoop) take(k knowledge) {
	e, bk := b.e, b.e.back
	n := 0
	if bk != nil {
		n = bk.store.Len()
	}
	for _, f := range e.shared.trees {
		if !slices.Contains(k.trees, f) {
			f.meets.fromBack = uint32(n)
		}
	}
	old := e.shared.trees
	e.shared.trees = k.trees
	if bk == nil || e.meets.found {
		return
	}
	s := bk.store
	for _, f := range k.trees {
		if slices.Contains(old, f) {
			continue
		}
		for id := f.meets.fromBack; id < uint32(n); id++ {
			if fid, ok := f.tree.store.Find(s.Key(id), s.Hash(id)); ok {
				e.meeting = meeting{forward: fid, backward: id, ok: true, in: f}
				e.meet()
				return
			}
		}
	}
}
