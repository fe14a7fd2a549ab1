package bench

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"soko/solver"
)

// IsTerminal reports whether w is a character device, such as a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws one status line: runs done of total, solved, the estimated
// time left, and the runs in flight. It is off when w is nil.
type progress struct {
	w       io.Writer
	on      bool
	mu      sync.Mutex
	start   time.Time
	total   int
	done    int
	solved  int
	running map[int]*running
	next    int
	quit    chan struct{}
	once    sync.Once
	shown   bool
	stopped bool
}

type running struct {
	name  string
	start time.Time
	stats solver.Stats
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, on: w != nil, start: time.Now(), total: total, running: map[int]*running{}, quit: make(chan struct{})}
	if p.on {
		go p.loop()
	}
	return p
}

func (p *progress) loop() {
	t := time.NewTicker(250 * time.Millisecond)
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

func (p *progress) end(slot int, solved bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, slot)
	p.done++
	if solved {
		p.solved++
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	var b strings.Builder
	const width = 20
	fill := 0
	if p.total > 0 {
		fill = p.done * width / p.total
	}
	fmt.Fprintf(&b, "[%s%s] %d/%d solved %d", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), p.done, p.total, p.solved)
	if p.done > 0 {
		el := time.Since(p.start)
		left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		fmt.Fprintf(&b, " ETA %s", left.Round(time.Second))
	}
	slots := make([]int, 0, len(p.running))
	for s := range p.running {
		slots = append(slots, s)
	}
	sort.Ints(slots)
	for _, s := range slots {
		r := p.running[s]
		fmt.Fprintf(&b, " | %s %.1fs", r.name, time.Since(r.start).Seconds())
		if n := max(r.stats.Expanded, r.stats.Iterations); n > 0 {
			fmt.Fprintf(&b, " %d", n)
		}
	}
	line := b.String()
	if len(line) > 150 {
		line = line[:147] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

func (p *progress) stop() {
	p.once.Do(func() {
		close(p.quit)
		if !p.on {
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		p.stopped = true
		if p.shown {
			fmt.Fprint(p.w, "\r\x1b[K")
		}
	})
}
