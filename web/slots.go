package web

import (
	"context"
	"slices"
	"sync"
)

// cpuSlots hands out Config.MaxJobs CPU slots to solver jobs, a job with
// Options.Threads = n taking up to n of them. Jobs get their slots in the
// order they asked, each as soon as one is free, taking as many more as
// are free then: a job with many threads neither waits for the slots of
// jobs still running (its threads only make it sooner) nor holds up the
// jobs behind it while it waits, and is not overtaken by them.
type cpuSlots struct {
	mu      sync.Mutex
	free    int
	running int // jobs holding slots
	waiting []*slotWaiter
}

type slotWaiter struct {
	n       int           // the slots it asks for
	granted int           // the slots it got, once ready is closed
	ready   chan struct{} // closed when the slots are granted
}

func newCPUSlots(n int) *cpuSlots { return &cpuSlots{free: n} }

// enqueue takes up to n free slots for a job at once when none waits
// before it, else puts it in the line, unless maxWaiting jobs wait there
// already (ok false: it is not queued). wait then gives its slots.
func (s *cpuSlots) enqueue(n, maxWaiting int) (w *slotWaiter, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w = &slotWaiter{n: n, ready: make(chan struct{})}
	if len(s.waiting) == 0 && s.free > 0 {
		w.granted = min(n, s.free)
		s.free -= w.granted
		s.running++
		close(w.ready)
		return w, true
	}
	if len(s.waiting) >= maxWaiting {
		return nil, false
	}
	s.waiting = append(s.waiting, w)
	return w, true
}

// isGranted reports whether w has its slots already.
func (w *slotWaiter) isGranted() bool {
	select {
	case <-w.ready:
		return true
	default:
		return false
	}
}

// wait waits until w (enqueue's) is granted its slots and returns how many
// (at least 1), or returns ctx's error without holding any.
func (s *cpuSlots) wait(ctx context.Context, w *slotWaiter) (int, error) {
	select {
	case <-w.ready:
		return w.granted, nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-w.ready: // granted just as ctx ended: give them back
		s.free += w.granted
		s.running--
	default:
		s.waiting = slices.DeleteFunc(s.waiting, func(o *slotWaiter) bool { return o == w })
	}
	s.grantLocked()
	return 0, ctx.Err()
}

// release gives back the n slots a job took (acquire's count).
func (s *cpuSlots) release(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free += n
	s.running--
	s.grantLocked()
}

// grantLocked gives slots to the waiters at the head of the line while
// any is free, to each up to what it asks; s.mu must be held.
func (s *cpuSlots) grantLocked() {
	for len(s.waiting) > 0 && s.free > 0 {
		w := s.waiting[0]
		s.waiting = s.waiting[1:]
		w.granted = min(w.n, s.free)
		s.free -= w.granted
		s.running++
		close(w.ready)
	}
}

// jobs returns the number of jobs holding slots.
func (s *cpuSlots) jobs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}
