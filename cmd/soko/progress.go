package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"soko/solver"
)

// progress draws one status line on stderr while levels are solved, when
// stderr is a terminal; otherwise it does nothing.
type progress struct {
	w       io.Writer
	on      bool
	mu      sync.Mutex
	total   int
	done    int
	running map[int]*running
	next    int
	quit    chan struct{}
	once    sync.Once
	shown   bool
}

type running struct {
	name  string
	start time.Time
	stats solver.Stats
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, on: isTerminal(w), total: total, running: map[int]*running{}, quit: make(chan struct{})}
	if p.on {
		go p.loop()
	}
	return p
}

func (p *progress) loop() {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-t.C:
			p.draw()
		}
	}
}

func (p *progress) begin(name string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	p.running[p.next] = &running{name: name, start: time.Now()}
	return p.next
}

func (p *progress) update(slot int, s solver.Stats) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.running[slot]; r != nil {
		r.stats = s
	}
}

func (p *progress) end(slot int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, slot)
	p.done++
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "[%d/%d]", p.done, p.total)
	for _, r := range p.running {
		fmt.Fprintf(&b, " %s %.1fs %d states", r.name, time.Since(r.start).Seconds(), r.stats.Expanded)
	}
	line := b.String()
	if len(line) > 120 {
		line = line[:117] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

// clear erases the status line so that a result can be printed.
func (p *progress) clear() {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func (p *progress) stop() {
	p.once.Do(func() { close(p.quit) })
	p.clear()
}
