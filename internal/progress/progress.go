// Package progress draws the one-line progress display that soko solve and
// soko bench show on stderr when it is a terminal: runs done of total,
// solved, the estimated time left, and the runs in flight with their time
// and states or iterations; while only one runs, also the portfolio member
// searching and its description of its best position (solver.Progress's
// Strategy and Detail).
package progress

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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

// Line is the progress display. It is off when its writer is nil; all its
// methods are safe for concurrent use.
type Line struct {
	w       io.Writer
	on      bool
	mu      sync.Mutex
	start   time.Time
	total   int
	done    int
	solved  int
	running map[int]*running
	took    []time.Duration // the time of each run done
	most    int             // the most runs in flight at once
	next    int
	quit    chan struct{}
	once    sync.Once
	shown   bool
	stopped bool
}

type running struct {
	name  string
	start time.Time
	last  solver.Progress
}

// New starts a display of total runs on w, or an inactive one if w is nil.
func New(w io.Writer, total int) *Line {
	p := &Line{w: w, on: w != nil, start: time.Now(), total: total, running: map[int]*running{}, quit: make(chan struct{})}
	if p.on {
		go p.loop()
	}
	return p
}

func (p *Line) loop() {
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

// Begin shows a run as in flight and returns its slot.
func (p *Line) Begin(name string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	p.running[p.next] = &running{name: name, start: time.Now()}
	p.most = max(p.most, len(p.running))
	return p.next
}

// Update records a running search's latest progress event.
func (p *Line) Update(slot int, ev solver.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.running[slot]; r != nil {
		r.last = ev
	}
}

// End marks a run as finished.
func (p *Line) End(slot int, solved bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.running[slot]; r != nil {
		p.took = append(p.took, time.Since(r.start))
	}
	delete(p.running, slot)
	p.done++
	if solved {
		p.solved++
	}
}

// maxWidth is the longest line drawn, in bytes; a longer one is cut.
const maxWidth = 150

func (p *Line) draw() {
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
	if eta := p.eta(time.Now()); eta != "" {
		fmt.Fprintf(&b, " ETA %s", eta)
	}
	slots := make([]int, 0, len(p.running))
	for s := range p.running {
		slots = append(slots, s)
	}
	sort.Ints(slots)
	for _, s := range slots {
		r := p.running[s]
		fmt.Fprintf(&b, " | %s %.1fs", r.name, time.Since(r.start).Seconds())
		if n := max(r.last.Expanded, r.last.Iterations); n > 0 {
			fmt.Fprintf(&b, " %d", n)
		}
		if len(slots) == 1 { // room for the search's own words
			if r.last.Strategy != "" {
				fmt.Fprintf(&b, " [%s]", r.last.Strategy)
			}
			if r.last.Detail != "" {
				fmt.Fprintf(&b, " %s", r.last.Detail)
			}
		}
	}
	line := b.String()
	if len(line) > maxWidth {
		cut := maxWidth - 3
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

// eta is the time left as the line shows it at now: the mean time of the
// runs done so far times the runs left, rounded up to a second, "" before
// a run is done. When a run in flight has already taken more than twice
// that mean, the runs left are not like those done (the quick levels were
// solved, the slow ones run to their limits) and the mean would promise
// seconds for what may take many minutes. Then, while runs are still to
// start, it is an estimate marked "~": the median time of a run, those
// done and those in flight counted at their time so far (no more than
// theirs), times the runs not started, over the most runs seen at once;
// it leaves out what the runs in flight still take, and when only those
// are left it is "—", unknown.
func (p *Line) eta(now time.Time) string {
	if p.done == 0 || p.done >= p.total {
		return ""
	}
	mean := now.Sub(p.start) / time.Duration(p.done)
	slow := false
	for _, r := range p.running {
		slow = slow || now.Sub(r.start) > 2*mean
	}
	if !slow {
		return roundUp(mean * time.Duration(p.total-p.done))
	}
	toStart := p.total - p.done - len(p.running)
	if toStart <= 0 {
		return "—"
	}
	times := slices.Clone(p.took)
	for _, r := range p.running {
		times = append(times, now.Sub(r.start))
	}
	slices.Sort(times)
	median := times[len(times)/2]
	return "~" + roundUp(median*time.Duration(toStart)/time.Duration(max(p.most, 1)))
}

// roundUp writes d rounded up to a second: never "0s" while runs remain.
func roundUp(d time.Duration) string { return (d + time.Second - 1).Truncate(time.Second).String() }

// Clear erases the line, so that a result can be printed; it comes back at
// the next redraw.
func (p *Line) Clear() {
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

// Active reports whether the display is drawn.
func (p *Line) Active() bool { return p.on }

// Stop erases the line and stops drawing it.
func (p *Line) Stop() {
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
