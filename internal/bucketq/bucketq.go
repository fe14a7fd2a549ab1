// Package bucketq is a two-level bucket priority queue for small
// non-negative integer priorities: the open list of the A*, greedy and
// breadth-first searches.
//
// Pop returns an item of the smallest priority; among those, the one of
// smallest tie (A* passes h, so that at equal f deeper nodes come first);
// among equal (priority, tie), the one pushed last (LIFO, which keeps a
// search on the path it just extended). Push and Pop are amortised O(1) when
// the minimum moves mostly upwards, as it does in A* with a consistent
// heuristic; memory grows with the largest priority and tie ever pushed.
package bucketq

import "unsafe"

// MaxTie is the largest tie value kept apart; larger ties are clamped to it,
// so all of them share the last sub-bucket (and its LIFO order).
const MaxTie = 4095

// MaxPriority is the largest accepted priority. One bucket header is kept
// for every priority up to the largest pushed, so the limit bounds that
// array to about 32 MiB.
const MaxPriority = 1<<20 - 1

// bucket holds the items of one priority: subs[t] is a stack of the ids
// pushed with tie t. minTie is ≤ the smallest t with a non-empty stack
// whenever n > 0.
type bucket struct {
	subs   [][]uint32
	minTie int32
	n      int32
}

// Queue is a min-queue of uint32 ids keyed by (priority, tie). The zero value
// is an empty queue ready to use.
//
// Layout: buckets[pr].subs[t] is the LIFO stack of ids with priority pr and
// tie t. cur is ≤ the smallest priority with a non-empty bucket whenever
// n > 0; Pop moves it up past empty buckets and Push moves it down. Emptied
// stacks keep their capacity, so a queue that is reused (Reset) stops
// allocating once it has seen its peak.
type Queue struct {
	buckets []bucket
	cur     int
	n       int
	bytes   int64 // capacity held by buckets and stacks, in bytes
}

const (
	bucketSize = int64(unsafe.Sizeof(bucket{}))
	stackSize  = int64(unsafe.Sizeof([]uint32(nil)))
	idSize     = int64(unsafe.Sizeof(uint32(0)))
)

// Push adds id with the given priority and tie. A tie above MaxTie is
// clamped to MaxTie. A negative priority or tie, or a priority above
// MaxPriority, is a programming error and panics.
func (q *Queue) Push(priority int, tie int, id uint32) {
	if priority < 0 || priority > MaxPriority || tie < 0 {
		panic("bucketq: priority or tie out of range")
	}
	tie = min(tie, MaxTie)
	if priority >= len(q.buckets) {
		q.growBuckets(priority + 1)
	}
	b := &q.buckets[priority]
	if tie >= len(b.subs) {
		q.growSubs(b, tie+1)
	}
	s := b.subs[tie]
	if len(s) == cap(s) {
		old := cap(s)
		s = append(s, id)
		q.bytes += int64(cap(s)-old) * idSize
	} else {
		s = append(s, id)
	}
	b.subs[tie] = s
	if b.n == 0 || int32(tie) < b.minTie {
		b.minTie = int32(tie)
	}
	b.n++
	if q.n == 0 || priority < q.cur {
		q.cur = priority
	}
	q.n++
}

func (q *Queue) growBuckets(n int) {
	old := cap(q.buckets)
	q.buckets = append(q.buckets, make([]bucket, n-len(q.buckets))...)
	q.bytes += int64(cap(q.buckets)-old) * bucketSize
}

func (q *Queue) growSubs(b *bucket, n int) {
	old := cap(b.subs)
	b.subs = append(b.subs, make([][]uint32, n-len(b.subs))...)
	q.bytes += int64(cap(b.subs)-old) * stackSize
}

// Pop removes and returns an item of the smallest priority, smallest tie
// among those, pushed last among those. ok is false if the queue is empty.
func (q *Queue) Pop() (id uint32, priority int, ok bool) {
	if q.n == 0 {
		return 0, 0, false
	}
	q.settle()
	b := &q.buckets[q.cur]
	for len(b.subs[b.minTie]) == 0 {
		b.minTie++
	}
	s := b.subs[b.minTie]
	id = s[len(s)-1]
	b.subs[b.minTie] = s[:len(s)-1]
	b.n--
	q.n--
	return id, q.cur, true
}

// settle moves cur up to the lowest non-empty bucket; q.n must be > 0.
func (q *Queue) settle() {
	for q.buckets[q.cur].n == 0 {
		q.cur++
	}
}

// Len returns the number of items in the queue.
func (q *Queue) Len() int { return q.n }

// Reset empties the queue, keeping its memory for reuse. It takes time
// proportional to the number of (priority, tie) stacks ever created.
func (q *Queue) Reset() {
	for i := range q.buckets {
		b := &q.buckets[i]
		for t := range b.subs {
			b.subs[t] = b.subs[t][:0]
		}
		b.n = 0
	}
	q.cur, q.n = 0, 0
}

// Bytes returns the approximate memory held by the queue, including capacity
// kept for reuse, for callers enforcing a memory budget.
func (q *Queue) Bytes() int64 {
	return q.bytes + int64(unsafe.Sizeof(*q))
}
