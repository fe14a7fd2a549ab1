package bucketq

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"testing"
)

// item is an entry of the reference queue; seq orders pushes.
type item struct {
	priority, tie int
	seq           int
	id            uint32
}

// refQueue is the obvious implementation: keep everything in a slice, sort
// by (priority, tie, newest first) and take the first.
type refQueue struct {
	items []item
	seq   int
}

func (r *refQueue) push(priority, tie int, id uint32) {
	r.seq++
	r.items = append(r.items, item{priority, min(tie, MaxTie), r.seq, id})
}

func (r *refQueue) pop() (item, bool) {
	if len(r.items) == 0 {
		return item{}, false
	}
	slices.SortFunc(r.items, func(a, b item) int {
		if a.priority != b.priority {
			return a.priority - b.priority
		}
		if a.tie != b.tie {
			return a.tie - b.tie
		}
		return b.seq - a.seq
	})
	it := r.items[0]
	r.items = r.items[1:]
	return it, true
}

func TestQueueMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var q Queue
	var ref refQueue
	var nextID uint32
	var pops, sameKey int
	for round := range 40 {
		// Vary the shape: narrow ranges give many equal keys (LIFO), wide
		// ones give sparse buckets; some rounds go far below the cursor.
		prRange := 1 + r.IntN(200)
		tieRange := 1 + r.IntN(20)
		base := r.IntN(1000)
		for range 2000 {
			switch r.IntN(5) {
			case 0, 1, 2:
				pr := base + r.IntN(prRange)
				if r.IntN(20) == 0 {
					pr = r.IntN(base + 1) // below the cursor
				}
				tie := r.IntN(tieRange)
				if r.IntN(50) == 0 {
					tie = MaxTie - 2 + r.IntN(10) // around the clamp
				}
				nextID++
				q.Push(pr, tie, nextID)
				ref.push(pr, tie, nextID)
			default:
				if got, want := q.least(), minPriority(&ref); got != want {
					t.Fatalf("round %d: least %d, want %d", round, got, want)
				}
				id, pr, ok := q.Pop()
				want, wantOK := ref.pop()
				if ok != wantOK || id != want.id || (ok && pr != want.priority) {
					t.Fatalf("round %d: Pop = (%d, %d, %v), want (%d, %d, %v)",
						round, id, pr, ok, want.id, want.priority, wantOK)
				}
				if ok {
					pops++
					if len(ref.items) > 0 && ref.items[0].priority == want.priority && ref.items[0].tie == want.tie {
						sameKey++
					}
				}
			}
			if q.Len() != len(ref.items) {
				t.Fatalf("round %d: Len %d, want %d", round, q.Len(), len(ref.items))
			}
		}
		if round%4 == 3 { // drain to empty
			for {
				id, pr, ok := q.Pop()
				want, wantOK := ref.pop()
				if ok != wantOK || id != want.id || pr != want.priority {
					t.Fatalf("round %d drain: Pop = (%d, %d, %v), want %+v", round, id, pr, ok, want)
				}
				if !ok {
					break
				}
			}
		}
		if round%10 == 9 {
			q.Reset()
			ref.items = ref.items[:0]
			if q.Len() != 0 || q.least() != -1 {
				t.Fatalf("after Reset: Len %d, least %d", q.Len(), q.least())
			}
		}
	}
	// The comparison exercised equal keys, so the LIFO rule was tested.
	if pops < 10000 || sameKey < 1000 {
		t.Fatalf("weak sample: %d pops, %d with an equal key left behind", pops, sameKey)
	}
}

func minPriority(r *refQueue) int {
	if len(r.items) == 0 {
		return -1
	}
	m := r.items[0].priority
	for _, it := range r.items {
		m = min(m, it.priority)
	}
	return m
}

func TestQueueOrderKnown(t *testing.T) {
	var q Queue
	if _, _, ok := q.Pop(); ok {
		t.Fatal("Pop on the zero Queue succeeded")
	}
	q.Push(5, 2, 1)
	q.Push(5, 1, 2)
	q.Push(3, 9, 3)
	q.Push(5, 1, 4)
	q.Push(5, MaxTie+100, 5) // clamped: same stack as 6
	q.Push(5, MaxTie, 6)
	q.Push(0, 0, 7) // below the cursor
	want := []uint32{7, 3, 4, 2, 1, 6, 5}
	for _, w := range want {
		if id, _, ok := q.Pop(); !ok || id != w {
			t.Fatalf("Pop = %d, %v; want %d", id, ok, w)
		}
	}
	if q.Len() != 0 || q.least() != -1 {
		t.Fatalf("not empty at the end: Len %d", q.Len())
	}
}

func TestQueuePanics(t *testing.T) {
	for _, c := range []struct{ pr, tie int }{{-1, 0}, {0, -1}, {MaxPriority + 1, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Push(%d, %d) did not panic", c.pr, c.tie)
				}
			}()
			var q Queue
			q.Push(c.pr, c.tie, 0)
		}()
	}
}

func TestQueueReuseNoAllocs(t *testing.T) {
	var q Queue
	fill := func() {
		for k := range 1000 {
			q.Push(k%37, k%11, uint32(k))
		}
		for q.Len() > 500 { // half popped, half left for Reset
			q.Pop()
		}
		q.Reset()
		if q.Len() != 0 {
			t.Fatalf("%d items after Reset", q.Len())
		}
		if _, _, ok := q.Pop(); ok {
			t.Fatal("Pop after Reset found an item")
		}
	}
	fill()
	held := q.Bytes()
	if held < 1000*4 {
		t.Fatalf("Bytes %d is less than the ids it held", held)
	}
	if allocs := testing.AllocsPerRun(20, fill); allocs != 0 {
		t.Fatalf("%v allocations per refill, want 0", allocs)
	}
	if q.Bytes() != held {
		t.Fatalf("Bytes changed on reuse: %d → %d", held, q.Bytes())
	}
}

// benchOps runs A*-like episodes: starting from one root at f = 100, pop the
// best node and push two or three children at f or f+2 with random h, for
// 1<<14 pops; then reset. Priorities stay bounded however long it runs. One
// op is one Push or one Pop.
func benchOps(b *testing.B, push func(f, h int, id uint32), pop func() int, reset func()) {
	r := rand.New(rand.NewPCG(13, 14))
	ops := 0
	for b.Loop() {
		reset()
		push(100, 60, 0)
		ops++
		for id := uint32(1); id < 1<<14; id++ {
			f := pop()
			children := 2 + r.IntN(2)
			for range children {
				push(f+2*r.IntN(2), r.IntN(60), id)
			}
			ops += 1 + children
		}
	}
	b.ReportMetric(float64(ops)/b.Elapsed().Seconds(), "ops/s")
}

func BenchmarkQueue(b *testing.B) {
	var q Queue
	benchOps(b, q.Push, func() int {
		_, f, _ := q.Pop()
		return f
	}, q.Reset)
	b.ReportMetric(float64(q.Bytes()), "bytes")
}

// BenchmarkHeap is the container/heap baseline for BenchmarkQueue.
func BenchmarkHeap(b *testing.B) {
	h := &refHeap{}
	benchOps(b, func(f, t int, id uint32) {
		heap.Push(h, item{priority: f, tie: t, id: id})
	}, func() int {
		return heap.Pop(h).(item).priority
	}, func() { *h = (*h)[:0] })
}

type refHeap []item

func (h refHeap) Len() int { return len(h) }
func (h refHeap) Less(i, j int) bool {
	if h[i].priority != h[j].priority {
		return h[i].priority < h[j].priority
	}
	return h[i].tie < h[j].tie
}
func (h refHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *refHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// least returns the priority the next Pop will return, or -1 if the queue
// is empty.
func (q *Queue) least() int {
	if q.n == 0 {
		return -1
	}
	q.settle()
	return q.cur
}
