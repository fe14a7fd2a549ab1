package solver_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"soko/level"
	"soko/solver"
)

// reader is a fake resumable Sharer: every step it appends to its own
// table and reads the last entry of the table of each member it was
// shared, holding mu over the step and in Share as solver.Sharer asks. A
// member read while its owner appends is a data race, which go test
// -race reports.
type reader struct {
	name string
	runs *runLog

	mu    sync.Mutex
	table []int64
	view  []*reader
	read  int64 // entries read of the others' tables
	steps int64
	own   time.Duration
}

// runLog records which readers run at once and what each read.
type runLog struct {
	mu      sync.Mutex
	running map[*reader]bool
	bad     []string // a reader that read one running
	most    int      // the most readers that ran at once
}

func (r *reader) Slice(ctx context.Context, l *level.Level, opts solver.Options, sl solver.Slice) (solver.Result, solver.Pause, error) {
	g := solver.NewGuard(ctx, opts)
	r.runs.mu.Lock()
	r.runs.running[r] = true
	r.runs.most = max(r.runs.most, len(r.runs.running))
	r.runs.mu.Unlock()
	defer func() {
		r.runs.mu.Lock()
		delete(r.runs.running, r)
		r.runs.mu.Unlock()
	}()
	for {
		res, p, done := r.step(g, sl)
		if done {
			return res, p, nil
		}
	}
}

// step is one step of r under r.mu, or the end of its slice.
func (r *reader) step(g *solver.Guard, sl solver.Slice) (solver.Result, solver.Pause, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := solver.Stats{Expanded: r.steps, Elapsed: r.own + g.Elapsed()}
	if sl.Until.Nodes > 0 && r.steps >= sl.Until.Nodes {
		r.own = st.Elapsed
		return solver.Result{Status: solver.NodeLimit, Stats: st}, solver.Pause{Paused: true, Improved: true}, true
	}
	if status, stop := g.Tick(&st); stop {
		return solver.Result{Status: status, Stats: st}, solver.Pause{}, true
	}
	r.steps++
	r.table = append(r.table, r.steps)
	for _, o := range r.view {
		if n := len(o.table); n > 0 && o.table[n-1] > 0 {
			r.read++
		}
		r.runs.mu.Lock()
		if r.runs.running[o] {
			r.runs.bad = append(r.runs.bad, r.name+" read "+o.name)
		}
		r.runs.mu.Unlock()
	}
	return solver.Result{}, solver.Pause{}, false
}

func (r *reader) End(solver.Status) solver.Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return solver.Stats{Expanded: r.steps, Elapsed: r.own}
}

func (r *reader) Share(others []solver.Resumable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.view = r.view[:0]
	for _, o := range others {
		r.view = append(r.view, o.(*reader))
	}
}

// TestRoundsThreadsShare: with two and three threads, members that share
// run side by side and read one another's tables, each only while its
// owner does not run (go test -race finds a read beside a write), and all
// of them read something.
func TestRoundsThreadsShare(t *testing.T) {
	for _, threads := range []int{2, 3} {
		log := &runLog{running: map[*reader]bool{}}
		var members []solver.Member
		var readers []*reader
		for _, name := range []string{"a", "b", "c", "d"} {
			r := &reader{name: name, runs: log}
			readers = append(readers, r)
			members = append(members, solver.Member{Name: name, Resumable: r, Share: 1})
		}
		p := solver.Portfolio{Members: members}
		res, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: threads, Budget: solver.Budget{Nodes: 400_000}})
		if err != nil || res.Status != solver.NodeLimit {
			t.Fatalf("threads %d: %v, %v; want the node limit", threads, res.Status, err)
		}
		if len(log.bad) > 0 {
			t.Errorf("threads %d: read while running: %v", threads, log.bad[:min(len(log.bad), 5)])
		}
		if log.most < 2 {
			t.Errorf("threads %d: at most %d members ran at once", threads, log.most)
		}
		for _, r := range readers {
			if r.read == 0 {
				t.Errorf("threads %d: %s read nothing of the others", threads, r.name)
			}
		}
	}
}

// TestRoundsShareFirstSlice: with two threads a member's first slice
// shares nothing, its later ones are shared the others that do not run,
// never itself.
func TestRoundsShareFirstSlice(t *testing.T) {
	a, b, c := &stepper{}, &stepper{}, &stepper{}
	p := solver.Portfolio{Members: []solver.Member{
		{Name: "a", Resumable: a, Share: 1},
		{Name: "b", Resumable: b, Share: 1},
		{Name: "c", Resumable: c, Share: 1},
	}}
	if _, err := solver.Run(context.Background(), p, level1(t), solver.Options{Threads: 2, Budget: solver.Budget{Nodes: 30_000}}); err != nil {
		t.Fatal(err)
	}
	most := 0
	for _, s := range []*stepper{a, b, c} {
		s.mu.Lock()
		shared, slices, inFirst := slices.Clone(s.shared), len(s.slices), s.inFirst
		s.mu.Unlock()
		most = max(most, slices)
		if inFirst {
			t.Errorf("shared %v, once while its first slice ran", shared)
		}
		if len(shared) < slices-1 {
			t.Errorf("%d slices, shared %v: want a share before each slice but the first", slices, shared)
		}
		for _, n := range shared {
			if n > 2 {
				t.Errorf("shared %v: more than the two others", shared)
			}
		}
	}
	if most < 3 {
		t.Errorf("at most %d slices a member: the test wants more", most)
	}
}
