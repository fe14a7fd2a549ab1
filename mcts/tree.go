package mcts

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"soko/internal/chunked"
	"soko/internal/english"
)

// None is the index of no node.
const None int32 = -1

// Root is the index of the root node; the root never moves and is never
// re-parented (its depth, 0, is the least there is).
const Root int32 = 0

// node is one tree node in the arena. Children form a doubly linked list
// (first, next, prev), so that a child can be unlinked in O(1) when Recursive
// Node Elimination deletes it or Schokoban re-parents it.
//
// Statistics and their invariant (checked by Tree.check):
//
//	n = self + Σ n(children)      visits: backups that started at or passed through
//	w = selfW ± Σ w(children)     sum of backed-up values (− between levels when negated)
//
// self and selfW hold the backups that started at this node (its
// evaluations) plus those absorbed from children that Recursive Node
// Elimination deleted: a deleted child's visits stay counted at its parent,
// as in the thesis's own implementation, but no longer belong to any child.
// The value of a node is w/n, the average of the values backed up through it
// (000 §3.2.4). Keeping sums instead of averages makes 000 §5.2's
// corrections exact subtractions and additions and needs no special case when
// n_k = n_j.
type node struct {
	parent, first, next, prev int32
	kids                      int32 // number of children
	depth                     int32 // edges from the root
	n, self                   int32
	w, selfW                  float64
	move                      uint32 // the game's action from the parent
	state                     uint32 // the game's state id
	flags                     uint8
}

const (
	expanded uint8 = 1 << iota // Expand has run on the node
	freed                      // the slot is on the free list
)

// Tree is an MCTS search tree whose nodes live in one chunked arena and
// are addressed by int32 index. Deleted slots are reused. Growing the arena
// never copies it: a plain slice held its old array beside the new one,
// 1.8 times the tree, at every growth. The zero Tree is not usable; call
// NewTree.
type Tree struct {
	nodes chunked.Slice[node]
	free  []int32
	live  int
	added int64   // nodes ever added, the root included
	stack []int32 // scratch for subtree walks
}

// NewTree returns a tree holding only the root, with the given state id.
func NewTree(state uint32) *Tree {
	t := &Tree{}
	t.nodes.Append(node{parent: None, first: None, next: None, prev: None, state: state})
	t.live, t.added = 1, 1
	return t
}

// Len returns the number of nodes in the tree.
func (t *Tree) Len() int { return t.live }

// Added returns the number of nodes ever added to the tree, the root included.
func (t *Tree) Added() int64 { return t.added }

// Bytes returns the memory held by the arena and its free list.
func (t *Tree) Bytes() int64 {
	return t.nodes.Bytes() + 4*int64(cap(t.free))
}

// at returns node x, which stays where it is as the tree grows.
func (t *Tree) at(x int32) *node { return t.nodes.At(int(x)) }

// First returns x's first child, or None.
func (t *Tree) First(x int32) int32 { return t.at(x).first }

// Next returns the next sibling of x, or None.
func (t *Tree) Next(x int32) int32 { return t.at(x).next }

// Depth returns the number of edges from the root to x.
func (t *Tree) Depth(x int32) int { return int(t.at(x).depth) }

// Visits returns x's visit count.
func (t *Tree) Visits(x int32) int { return int(t.at(x).n) }

// Value returns x's value, the average of the values backed up through it,
// or 0 when it has none.
func (t *Tree) Value(x int32) float64 {
	nd := t.at(x)
	if nd.n == 0 {
		return 0
	}
	return nd.w / float64(nd.n)
}

// Move returns the game's action that leads from x's parent to x.
func (t *Tree) Move(x int32) uint32 { return t.at(x).move }

// State returns the game's state id of x.
func (t *Tree) State(x int32) uint32 { return t.at(x).state }

// Expanded reports whether x has been expanded.
func (t *Tree) Expanded(x int32) bool { return t.at(x).flags&expanded != 0 }

// MarkExpanded records that x has been expanded.
func (t *Tree) MarkExpanded(x int32) { t.at(x).flags |= expanded }

// Add creates a child of parent with the given action and state id and
// returns it. The new child is the first in parent's child list.
func (t *Tree) Add(parent int32, move, state uint32) int32 {
	var x int32
	if k := len(t.free); k > 0 {
		x = t.free[k-1]
		t.free = t.free[:k-1]
	} else {
		x = int32(t.nodes.Len())
		t.nodes.Append(node{})
	}
	*t.at(x) = node{parent: None, first: None, next: None, prev: None, move: move, state: state}
	t.link(x, parent)
	t.live++
	t.added++
	return x
}

// link makes x, which must be unlinked, the first child of p.
func (t *Tree) link(x, p int32) {
	nd, pn := t.at(x), t.at(p)
	nd.parent, nd.prev, nd.next = p, None, pn.first
	if pn.first != None {
		t.at(pn.first).prev = x
	}
	pn.first = x
	pn.kids++
	nd.depth = pn.depth + 1
}

// unlink takes x out of its parent's child list.
func (t *Tree) unlink(x int32) {
	nd := t.at(x)
	p := t.at(nd.parent)
	if nd.prev != None {
		t.at(nd.prev).next = nd.next
	} else {
		p.first = nd.next
	}
	if nd.next != None {
		t.at(nd.next).prev = nd.prev
	}
	p.kids--
	nd.parent, nd.prev, nd.next = None, None, None
}

// Backup adds value u, obtained by evaluating x, to x and every ancestor of
// x: v ← (n·v + u)/(n+1), n ← n+1 (000 §3.2.4). With negate the sign of u
// flips at every level up, as in two-player games (000 Appendix B.2); without
// it the value is passed up unchanged (single-player, 000 §4.3.2).
func (t *Tree) Backup(x int32, u float64, negate bool) {
	t.at(x).self++
	t.at(x).selfW += u
	for y := x; y != None; y = t.at(y).parent {
		nd := t.at(y)
		nd.n++
		nd.w += u
		if negate {
			u = -u
		}
	}
}

// Select returns the child of x that the UCT policy picks (000 §3.2.5,
// Alg. 1): an unvisited child chosen uniformly at random if there is one,
// otherwise the child with the highest v + c·√(2 ln n_x / n_child), ties
// broken at random. x must have children.
func (t *Tree) Select(x int32, c float64, rng *rand.Rand) int32 {
	if y := t.RandomUnvisited(x, rng); y != None {
		return y
	}
	k := c * math.Sqrt(2*math.Log(float64(t.at(x).n)))
	best, seen, top := None, 0, math.Inf(-1)
	for y := t.at(x).first; y != None; y = t.at(y).next {
		nd := t.at(y)
		inv := 1 / float64(nd.n)
		s := nd.w*inv + k*math.Sqrt(inv)
		if math.IsNaN(s) {
			s = math.Inf(-1) // never the best, but never none: x has children
		}
		switch {
		case s > top:
			top, best, seen = s, y, 1
		case s == top:
			seen++
			if rng.IntN(seen) == 0 {
				best = y
			}
		}
	}
	return best
}

// RandomUnvisited returns a child of x with no visits, chosen uniformly at
// random, or None.
func (t *Tree) RandomUnvisited(x int32, rng *rand.Rand) int32 {
	best, seen := None, 0
	for y := t.at(x).first; y != None; y = t.at(y).next {
		if t.at(y).n == 0 {
			seen++
			if seen == 1 || rng.IntN(seen) == 0 {
				best = y
			}
		}
	}
	return best
}

// Eliminate is Recursive Node Elimination (000 §4.2.3): it deletes x, which
// must have no children, and then every ancestor left without children. A
// deleted node's statistics stay counted at its parent. removed, if not nil,
// is called for every deleted node before its slot is freed. Eliminate
// reports whether the root itself was left without children: then the whole
// reachable space has been shown to hold no solution, and the root is kept.
func (t *Tree) Eliminate(x int32, removed func(int32)) (rootDead bool) {
	for {
		if x == Root {
			return true
		}
		p := t.at(x).parent
		t.Remove(x, removed)
		if t.at(p).first != None {
			return false
		}
		x = p
	}
}

// Remove deletes x and its whole subtree. x's statistics stay counted at
// its parent (see node). removed, if not nil, is called for every deleted
// node. The root cannot be removed.
func (t *Tree) Remove(x int32, removed func(int32)) {
	if x == Root {
		panic("mcts: removing the root")
	}
	p := t.at(x).parent
	t.at(p).self += t.at(x).n
	t.at(p).selfW += t.at(x).w
	t.unlink(x)
	stack := append(t.stack[:0], x)
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for c := t.at(y).first; c != None; c = t.at(c).next {
			stack = append(stack, c)
		}
		if removed != nil {
			removed(y)
		}
		*t.at(y) = node{parent: None, first: None, next: None, prev: None, flags: freed}
		t.free = append(t.free, y)
		t.live--
	}
	t.stack = stack
}

// Reparent moves the subtree rooted at j under the new parent i and returns
// j's former parent (000 §5.1, Alg. 4). The statistics follow 000 §5.2: every
// former ancestor k loses j's visits and values, v_k ← (v_k·n_k − v_j·n_j) /
// (n_k − n_j), n_k ← n_k − n_j; every new ancestor l gains them, v_l ←
// (v_l·n_l + v_j·n_j)/(n_l + n_j), n_l ← n_l + n_j. Depths in j's subtree are
// recomputed. Reparent is for single-player trees (no negation); i must not
// lie in j's subtree.
func (t *Tree) Reparent(j, i int32) int32 {
	nj, wj := t.at(j).n, t.at(j).w
	old := t.at(j).parent
	for k := old; k != None; k = t.at(k).parent {
		t.at(k).n -= nj
		t.at(k).w -= wj
	}
	t.unlink(j)
	t.link(j, i)
	for l := i; l != None; l = t.at(l).parent {
		t.at(l).n += nj
		t.at(l).w += wj
	}
	t.redepth(j)
	return old
}

// redepth sets the depth of every node below x to its parent's plus one.
func (t *Tree) redepth(x int32) {
	stack := append(t.stack[:0], x)
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := t.at(y).depth + 1
		for c := t.at(y).first; c != None; c = t.at(c).next {
			t.at(c).depth = d
			if t.at(c).first != None {
				stack = append(stack, c)
			}
		}
	}
	t.stack = stack
}

// Path appends to dst the nodes from the root's first child down to x and
// returns it.
func (t *Tree) Path(dst []int32, x int32) []int32 {
	start := len(dst)
	for ; x != Root && x != None; x = t.at(x).parent {
		dst = append(dst, x)
	}
	for i, j := start, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// check verifies the tree's structure and, unless negate, the statistics
// invariant documented on node, recomputing every node's visits and value
// sum from scratch from the leaves up. Value sums must agree within tol
// (relative); with integer values they are exact and tol can be 0.
func (t *Tree) check(negate bool, tol float64) error {
	var errs []error
	type sums struct {
		n int64
		w float64
	}
	memo := make(map[int32]sums)
	var recompute func(x int32) sums
	recompute = func(x int32) sums {
		nd := t.at(x)
		s := sums{int64(nd.self), nd.selfW}
		kids := int32(0)
		prev := None
		for c := nd.first; c != None; c = t.at(c).next {
			cn := t.at(c)
			if cn.parent != x || cn.prev != prev {
				errs = append(errs, fmt.Errorf("node %d: broken child links under %d", c, x))
			}
			if cn.depth != nd.depth+1 {
				errs = append(errs, fmt.Errorf("node %d: depth %d under a parent at depth %d", c, cn.depth, nd.depth))
			}
			cs := recompute(c)
			s.n += cs.n
			if negate {
				s.w -= cs.w
			} else {
				s.w += cs.w
			}
			kids++
			prev = c
		}
		if kids != nd.kids {
			errs = append(errs, fmt.Errorf("node %d: %s counted, %d linked", x, english.Count(int(nd.kids), "child", "children"), kids))
		}
		if s.n != int64(nd.n) || (!negate && math.Abs(s.w-nd.w) > tol*max(1, math.Abs(s.w))) {
			errs = append(errs, fmt.Errorf("node %d: stored n=%d w=%g, recomputed n=%d w=%g", x, nd.n, nd.w, s.n, s.w))
		}
		memo[x] = s
		return s
	}
	recompute(Root)
	if len(memo) != t.live {
		errs = append(errs, fmt.Errorf("%s reachable from the root, %d live", english.Count(len(memo), "node", "nodes"), t.live))
	}
	if len(errs) > 5 {
		errs = append(errs[:5], fmt.Errorf("and %d more", len(errs)-5))
	}
	return errors.Join(errs...)
}
