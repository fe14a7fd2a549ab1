package fess

import (
	"slices"
	"unsafe"

	"soko/internal/chunked"
	"soko/sokoban"
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
	weight int32 // accumulated move weight from the root (the FESS paper's move weights)
	sub    int32 // expansions in its subtree, itself included
	cell   int32 // the cell of the best feature vector on its path
	feat   features
	depth  int32 // pushes from the root along the path the solution takes (tree.link)
	state  uint8
}

const noParent = ^uint32(0)

// tree is the forward search's tree: its nodes, and their positions in
// store under the same ids, packed by keys (shared with the backward
// search, so that either finds the other's positions).
type tree struct {
	store *sokoban.Store
	nodes chunked.Slice[node]
	keys  keyer
	// shorter holds, for the nodes reached again by fewer pushes than
	// their depth, the link of that shorter path; a solution follows it
	// rather than parent, which the search keeps.
	shorter map[uint32]link
	// scratch: the last key packed, the boxes of the position being
	// expanded, sorted (for keyOf), and its children's hashes (touch)
	key    []byte
	sorted []sokoban.Square
	hashes []uint64
}

// link is the step of a path: the position it comes from and the move.
type link struct {
	parent uint32
	move   Macro
}

// linkBytes is what one entry of a shorter table takes, roughly: the key,
// the link and the map's own overhead.
const linkBytes = 48

func newTree(b *sokoban.Board) tree {
	return tree{store: sokoban.NewStore(b.KeySize()), keys: newKeyer(b), shorter: map[uint32]link{}}
}

// pathStep returns the link node id's solution path takes back towards the
// root: its shorter link if it has one, its parent otherwise.
func (t *tree) pathStep(id uint32) link {
	if l, ok := t.shorter[id]; ok {
		return l
	}
	nd := t.at(id)
	return link{nd.parent, nd.move}
}

// reached notes that node id is reached again from node from by move:
// when that is fewer pushes from the root, its solution path goes there.
// Depths along the path strictly fall (every move pushes), so the links
// never make a cycle; a node's descendants keep their depths, which can
// then be more than their paths, never less.
func (t *tree) reached(id, from uint32, move Macro) {
	d := t.at(from).depth + move.Pushes
	if nd := t.at(id); d < nd.depth {
		nd.depth = d
		t.shorter[id] = link{from, move}
	}
}

// reparent gives node id a new search parent by move; its solution path
// stays where it was (reached may shorten it).
func (t *tree) reparent(id, parent uint32, move Macro) {
	nd := t.at(id)
	if _, ok := t.shorter[id]; !ok {
		t.shorter[id] = link{nd.parent, nd.move}
	}
	nd.parent, nd.move = parent, move
	t.reached(id, parent, move)
}

// at returns node id.
func (t *tree) at(id uint32) *node { return t.nodes.At(int(id)) }

// bytes returns the memory the nodes and the store take.
func (t *tree) bytes() int64 {
	return t.store.Bytes() + int64(t.nodes.Cap())*int64(unsafe.Sizeof(node{})) + linkBytes*int64(len(t.shorter))
}

// sortBoxes sorts the box squares of p into t.sorted, for keyOf.
func (t *tree) sortBoxes(p *sokoban.Position) {
	t.sorted = append(t.sorted[:0], p.BoxSquares()...)
	slices.Sort(t.sorted)
}

// keyOf packs a child of the position whose boxes are in t.sorted, where
// the box on from went to to and the player's canonical square is canon
// (keyer.pack), with from None that position itself.
func (t *tree) keyOf(from, to, canon sokoban.Square) ([]byte, uint64) {
	key, hash := t.keys.pack(t.key, t.sorted, from, to, canon)
	t.key = key
	return key, hash
}

// touch loads the store's slots for the children of moves, the boxes of
// their parent in t.sorted, before they are interned (sokoban.Store.Touch),
// so that their cache misses overlap.
func (t *tree) touch(moves []Macro) {
	t.hashes = t.keys.childHashes(t.hashes[:0], t.sorted, moves)
	t.store.Touch(t.hashes)
}
