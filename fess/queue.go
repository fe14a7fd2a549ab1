package fess

import (
	"container/heap"
	"unsafe"
)

// cell is one point of the feature space: the nodes whose best feature
// vector on their path is key, waiting to be expanded: in wait lightest
// first and, where the queue takes turns by features, in byFeat again by
// their own features alone.
type cell struct {
	key    cellKey
	wait   entries
	byFeat entries
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

// entryBytes is the memory of an entry in a heap; cellBytes that of a
// cell, its slice header and its key in cellOf, as counted.
const (
	entryBytes = int64(unsafe.Sizeof(entry{}))
	cellBytes  = 64
)

// cellQueue is the FESS paper's cell loop: the cells found so far, each
// with its nodes waiting, and whose turn is next.
type cellQueue struct {
	cells  []cell
	cellOf map[cellKey]int32
	fresh  []int32 // cells not yet visited by the round robin
	rr     int     // the round robin's next cell
	best   int32   // the best cell so far
	first  uint32  // the node that made best the best cell (drawn for progress)
	turn   uint64
	// featuresOn: the cells keep byFeat, and every other turn of the best
	// cell's and of the round robin's takes the cell's node with the best
	// features, its weight aside; featuresLate: that comes on once
	// featuresLate of the budget is spent (strategy.taken).
	featuresOn, featuresLate bool
	// waitCap is the capacity of the cells' heaps, summed as add grows
	// them (bytes runs at every expansion, over a thousand cells and more).
	waitCap int64
}

// bytes returns the memory the cells and their heaps take.
func (q *cellQueue) bytes() int64 {
	return int64(len(q.cells))*cellBytes + entryBytes*q.waitCap
}

// next picks the node to expand: turns alternate between the best cell
// and a round robin over all cells, where a cell not yet visited comes
// first (the FESS paper's cell loop). When the best cell has no node
// waiting (all expanded, or found dead when they came up), its turns go
// to the round robin too, unless the engine is focusing (focusing): then
// they go to the best cell that has nodes waiting. Within a cell the
// lightest node comes first or, on the turns by features, the one with
// the best features (the lightest where none of those waits).
func (e *engine) next() (uint32, bool) {
	q := &e.queue
	for {
		q.turn++
		var c int32 = -1
		if q.turn%2 == 0 {
			if len(q.cells[q.best].wait) > 0 {
				c = q.best
			} else if e.focusing() {
				c = q.bestWaiting()
			}
		}
		if c < 0 {
			c = q.roundRobin()
		}
		if c < 0 {
			return 0, false
		}
		if q.turn%4 >= 2 && e.featuresOn() {
			if id, ok := e.popByFeatures(c); ok {
				return id, true
			}
		}
		wait := &q.cells[c].wait
		for wait.Len() > 0 {
			en := heap.Pop(wait).(entry)
			if !e.current(en, c) {
				continue
			}
			return en.id, true
		}
	}
}

// current reports whether entry en of cell c is not stale: its node was
// not expanded, nor queued again lighter or in another cell.
func (e *engine) current(en entry, c int32) bool {
	nd := e.tree.at(en.id)
	return nd.state == generated && int32(en.key>>48) == nd.weight && nd.cell == c
}

// popByFeatures takes from cell c the waiting node with the best
// features, its weight aside, if one is left; an entry is stale where its
// node was expanded or moved to another cell since.
func (e *engine) popByFeatures(c int32) (uint32, bool) {
	byFeat := &e.queue.cells[c].byFeat
	for byFeat.Len() > 0 {
		en := heap.Pop(byFeat).(entry)
		if nd := e.tree.at(en.id); nd.state == generated && nd.cell == c {
			return en.id, true
		}
	}
	return 0, false
}

// fillByFeatures turns the turns by features on late: every node waiting
// in a cell goes into the cell's byFeat too, as add puts it from then on,
// so that the turns take the same nodes as if byFeat had been kept from
// the start.
func (e *engine) fillByFeatures() {
	q := &e.queue
	q.featuresOn, q.featuresLate = true, false
	for i := range q.cells {
		c := int32(i)
		byFeat := &q.cells[i].byFeat
		before := cap(*byFeat)
		for _, en := range q.cells[i].wait {
			if e.current(en, c) {
				*byFeat = append(*byFeat, entry{key: en.key & orderBits, id: en.id})
			}
		}
		heap.Init(byFeat)
		q.waitCap += int64(cap(*byFeat) - before)
	}
}

// orderBits masks a wait entry's key down to the node's order.
const orderBits = 1<<48 - 1

// bestWaiting returns the best cell that has nodes waiting, or -1 when
// none has.
func (q *cellQueue) bestWaiting() int32 {
	c := int32(-1)
	for i := range q.cells {
		if len(q.cells[i].wait) > 0 && (c < 0 || q.cells[i].key.better(q.cells[c].key)) {
			c = int32(i)
		}
	}
	return c
}

// roundRobin returns the next cell with nodes waiting, or -1 when none has.
func (q *cellQueue) roundRobin() int32 {
	for len(q.fresh) > 0 {
		c := q.fresh[0]
		q.fresh = q.fresh[1:]
		if len(q.cells[c].wait) > 0 {
			return c
		}
	}
	for range len(q.cells) {
		c := int32(q.rr % len(q.cells))
		q.rr++
		if len(q.cells[c].wait) > 0 {
			return c
		}
	}
	return -1
}

// cellFor returns the cell of key, creating it.
func (q *cellQueue) cellFor(k cellKey) int32 {
	if c, ok := q.cellOf[k]; ok {
		return c
	}
	c := int32(len(q.cells))
	q.cells = append(q.cells, cell{key: k})
	q.cellOf[k] = c
	q.fresh = append(q.fresh, c)
	return c
}

// add puts node id, of weight w and order (features.order), in cell c,
// which becomes the best cell when it is better; by its order alone too
// where the queue takes turns by features.
func (q *cellQueue) add(c int32, id uint32, w int32, order uint64) {
	if q.cells[c].key.better(q.cells[q.best].key) {
		q.best, q.first = c, id
	}
	wait := &q.cells[c].wait
	before := cap(*wait)
	heap.Push(wait, entry{key: uint64(w)<<48 | order, id: id})
	q.waitCap += int64(cap(*wait) - before)
	if q.featuresOn {
		byFeat := &q.cells[c].byFeat
		before := cap(*byFeat)
		heap.Push(byFeat, entry{key: order, id: id})
		q.waitCap += int64(cap(*byFeat) - before)
	}
}
