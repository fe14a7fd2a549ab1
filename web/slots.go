package web

import (
	"context"
	"slices"
	"sync"
)

// cpuSlots hands out Config.MaxJobs CPU slots to solver jobs, a job with
// Options.Threads = n taking n of them. Jobs get their slots in the order
// they asked, so a job with many threads is not starved by smaller ones
// behind it.
type cpuSlots struct {
	mu      sync.Mutex
	free    int
	running int // jobs holding slots
	waiting []*slotWaiter
}

type slotWaiter struct {
	n     int
	ready chan struct{} // closed when the slots are granted
}

func newCPUSlots(n int) *cpuSlots { return &cpuSlots{free: n} }

// acquire waits for n slots, or returns ctx's error without holding any.
func (s *cpuSlots) acquire(ctx context.Context, n int) error {
	s.mu.Lock()
	if len(s.waiting) == 0 && s.free >= n {
		s.free -= n
		s.running++
		s.mu.Unlock()
		return nil
	}
	w := &slotWaiter{n: n, ready: make(chan struct{})}
	s.waiting = append(s.waiting, w)
	s.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-w.ready: // granted just as ctx ended: give them back
		s.free += n
		s.running--
	default:
		s.waiting = slices.DeleteFunc(s.waiting, func(o *slotWaiter) bool { return o == w })
	}
	s.grantLocked()
	return ctx.Err()
}

// release gives back the n slots of a job that acquired them.
func (s *cpuSlots) release(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free += n
	s.running--
	s.grantLocked()
}

// grantLocked gives slots to the waiters at the head of the line while
// there are enough; s.mu must be held.
func (s *cpuSlots) grantLocked() {
	for len(s.waiting) > 0 && s.free >= s.waiting[0].n {
		w := s.waiting[0]
		s.waiting = s.waiting[1:]
		s.free -= w.n
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
