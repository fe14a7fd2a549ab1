package mcts

import (
	"unsafe"

	"soko/internal/hashtab"
	"soko/level"
)

// MCTS-R, 002 §III: reversibility checking during selection (Alg. 1) and
// compression of reversible chains (Alg. 2).
//
// Every node keeps an action list, the steps that lead from its parent's
// state to its own (acts), and a hash list, its own state's hash plus the
// hashes of the states merged into it (own, extra). Invariant: applying a
// node's action list to its parent's state gives the node's state, whose
// hash is own[x]; every hash in x's list names a state that x's state and it
// reach from each other.
//
// Check (Visit, Alg. 1): when selection reaches node x, the ancestors are
// searched, parent first, for one whose hash list holds x's hash. If top is
// found, the steps from top down to x form a reversible chain: they return
// to a state of top's class.
//
// Compression (compress, Alg. 2): the chain's nodes s_{i+1} … s_n are taken
// out and their hashes join top's list. Every dangling subtree, the children
// of a chain node s_k that are not in the chain, is re-inserted under top at
// the same relative depth, its action list prefixed by the steps that walk
// the original tree from top to s_k. Re-insertion merges as it goes
// (settle): a node whose state is in its new parent's class is dissolved
// into the parent, its children moving up with its steps prefixed; a node
// whose state equals a sibling's is merged into that sibling, which keeps
// the shorter action list, and its children are re-inserted under the
// sibling in turn. The iteration ends after a compression (002 §V.A counts
// it as an iteration).
//
// Statistics are not specified by 002; ours follow the tree's invariant:
// moved subtrees carry their visits and values (Tree.Reparent), and a removed
// chain or merged node leaves its own evaluations with the node it is merged
// into.

// inClass reports whether hash h is in x's hash list.
func (g *moveGame) inClass(x int32, h uint64) bool {
	if *g.own.At(int(x)) == h {
		return true
	}
	e := *g.extra.At(int(x))
	return e != nil && e.Has(h)
}

// join adds h to x's hash list.
func (g *moveGame) join(x int32, h uint64) {
	if *g.own.At(int(x)) == h {
		return
	}
	e := *g.extra.At(int(x))
	if e == nil {
		e = hashtab.New[struct{}](8)
		*g.extra.At(int(x)) = e
		g.extraBytes += int64(unsafe.Sizeof(*e)) + e.Bytes()
	}
	before := e.Bytes()
	e.Add(h)
	g.extraBytes += e.Bytes() - before
}

// joinAll adds y's whole hash list to x's.
func (g *moveGame) joinAll(x, y int32) {
	g.join(x, *g.own.At(int(y)))
	if e := *g.extra.At(int(y)); e != nil {
		for h := range e.Keys() {
			g.join(x, h)
		}
	}
}

// setActs replaces x's action list.
func (g *moveGame) setActs(x int32, a []level.Dir) {
	g.actsBytes += int64(cap(a)) - int64(cap(*g.acts.At(int(x))))
	*g.acts.At(int(x)) = a
}

// Removed implements Remover: it frees the tables of a deleted node.
func (g *moveGame) Removed(t *Tree, x int32) {
	if g.variant != reversible {
		return
	}
	if e := *g.extra.At(int(x)); e != nil {
		g.extraBytes -= int64(unsafe.Sizeof(*e)) + e.Bytes()
		*g.extra.At(int(x)) = nil
	}
	g.setActs(x, nil)
}

// Visit implements Visitor: the reversibility check of 002 Alg. 1.
func (g *moveGame) Visit(t *Tree, x int32) bool {
	if g.variant != reversible {
		return false
	}
	h := *g.own.At(int(x))
	top := t.at(x).parent
	for top != None && !g.inClass(top, h) {
		top = t.at(top).parent
	}
	if top == None {
		return false
	}
	g.compress(t, x, top)
	g.compressions++
	return true
}

// compress folds the chain from top's child down to x into top (002 Alg. 2).
func (g *moveGame) compress(t *Tree, x, top int32) {
	chain := t.Path(nil, x)[t.at(top).depth:] // s_{i+1} … s_n
	// Hash lists first, so that settling sees top's whole class.
	for _, c := range chain {
		g.joinAll(top, c)
	}
	// Move the dangling subtrees under top, prefixing the walk from top.
	var prefix []level.Dir
	var moved []int32
	for k, c := range chain {
		prefix = append(prefix, *g.acts.At(int(c))...)
		if *g.own.At(int(c)) == *g.own.At(int(top)) {
			prefix = prefix[:0] // back at top's very state
		}
		var next int32 = None
		if k+1 < len(chain) {
			next = chain[k+1]
		}
		for y := t.at(c).first; y != None; {
			after := t.at(y).next
			if y != next {
				g.setActs(y, concat(prefix, *g.acts.At(int(y))))
				t.Reparent(y, top)
				moved = append(moved, y)
			}
			y = after
		}
	}
	// The chain is now a bare path: remove it; its evaluations stay with top.
	t.Remove(chain[0], g.removed(t))
	for _, y := range moved {
		g.settle(t, top, y)
	}
}

// settle re-inserts node c, a child of p, merging it as 002 Alg. 2 does.
func (g *moveGame) settle(t *Tree, p, c int32) {
	if g.inClass(p, *g.own.At(int(c))) {
		// c's state is one of p's: dissolve c into p.
		g.absorb(t, p, c, true)
		return
	}
	for s := t.at(p).first; s != None; s = t.at(s).next {
		if s == c || *g.own.At(int(s)) != *g.own.At(int(c)) {
			continue
		}
		// A sibling with the same state: merge c into it.
		if len(*g.acts.At(int(c))) < len(*g.acts.At(int(s))) {
			g.setActs(s, append([]level.Dir(nil), *g.acts.At(int(c))...))
		}
		g.absorb(t, s, c, false)
		return
	}
}

// absorb merges node c into node into, its parent p or a sibling: c's
// children move under into, their walks prefixed with c's own when into
// is p (c's state is then another of p's class), c's class joins into's,
// c goes, and each child is settled in its new place. A sibling takes c's
// statistics first (Tree.Reparent) and keeps them when c is removed.
func (g *moveGame) absorb(t *Tree, into, c int32, parent bool) {
	kids := g.children(t, c)
	for _, y := range kids {
		if parent {
			g.setActs(y, concat(*g.acts.At(int(c)), *g.acts.At(int(y))))
		}
		t.Reparent(y, into)
	}
	g.joinAll(into, c)
	if !parent {
		t.Reparent(c, into)
	}
	t.Remove(c, g.removed(t))
	for _, y := range kids {
		g.settle(t, into, y)
	}
}

// children returns a copy of x's child list.
func (g *moveGame) children(t *Tree, x int32) []int32 {
	var out []int32
	for y := t.at(x).first; y != None; y = t.at(y).next {
		out = append(out, y)
	}
	return out
}

func (g *moveGame) removed(t *Tree) func(int32) {
	return func(x int32) { g.Removed(t, x) }
}

func concat(a, b []level.Dir) []level.Dir {
	out := make([]level.Dir, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
