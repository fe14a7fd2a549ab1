package fess

import (
	"cmp"
	"slices"
	"time"

	"soko/deadlock"
	"soko/solver"
)

// tracer writes an engine's trace records (docs/fess.md, "Tracing"): where
// a strategy's time went, the best cell it reached and when, and what it
// was expanding. The engine holds a nil *tracer when tracing is off and
// tests it before every call, so that tracing off costs one comparison
// per expansion and changes nothing in the search.
type tracer struct {
	t    *solver.Trace
	next time.Time // when the next snapshot is due
	// The best cell as last recorded (-1 before the root), when it became
	// best (the trace's clock, and the expansions then), and the node that
	// reached it.
	best         int32
	bestAt       time.Duration
	bestExpanded int64
	bestNode     uint32
	expandedIn   []int64 // expansions per cell
}

// snapshotEvery is the interval between snapshots of the node being
// expanded: the interval of the progress events (solver.Guard).
const snapshotEvery = 100 * time.Millisecond

// cellRecord is a cell's key in the trace: boxes packed, player regions,
// boxes out of plan, hotspots (features.go).
type cellRecord struct {
	Packed    int16 `json:"packed"`
	Regions   int16 `json:"regions"`
	OutOfPlan int16 `json:"outofplan"`
	Hotspots  int16 `json:"hotspots"`
}

func cellOf(k cellKey) cellRecord { return cellRecord{k.packed, k.conn, k.oop, k.hot} }

// nodeRecord is a node in the trace: its own features, with the pushes the
// nearest free box needs to the plan's next goal and the distance of all
// boxes to the goals; the cell it waited in (the best features on its
// path) and whether that is the best cell; its weight (the advisors' sum,
// expand.go), its depth in macro-moves; its board as XSB rows.
type nodeRecord struct {
	Features cellRecord `json:"features"`
	Next     int16      `json:"next"`
	Dist     int32      `json:"dist"`
	Cell     cellRecord `json:"cell"`
	InBest   bool       `json:"in_best"`
	Weight   int32      `json:"weight"`
	Depth    int        `json:"depth"`
	Board    []string   `json:"board"`
}

// counters are the search's counters at a record.
type counters struct {
	Expanded  int64 `json:"expanded"`
	Generated int64 `json:"generated"`
	Stored    int64 `json:"stored"`
	Cells     int   `json:"cells"`
}

// bestRecord says since when the best cell has been best.
type bestRecord struct {
	Best         cellRecord `json:"best"`
	BestAt       float64    `json:"best_at_s"`
	BestExpanded int64      `json:"best_expanded"`
}

// newTracer returns the engine's tracer, nil when t is nil (tracing off).
func newTracer(t *solver.Trace) *tracer {
	if t == nil {
		return nil
	}
	return &tracer{t: t, best: -1}
}

// start records the strategy's start: its budget, the boxes, and when its
// cell loop focuses.
func (tr *tracer) start(e *engine) {
	tr.t.Write("start", struct {
		Budget float64 `json:"budget_s"`
		Nodes  int64   `json:"budget_nodes"`
		Boxes  int     `json:"boxes"`
		Focus  string  `json:"focus"`
	}{seconds(e.budget.Time), e.budget.Nodes, e.b.Boxes(), e.strat.focus.String()})
}

// root records the root of the forward search, after the opening: the
// expansions the opening's searches took, what the packed feature counts
// (the packing plan, its replanned order, boxes on goals, the imagined
// board or the parking plan), then the root's cell as the first best.
func (tr *tracer) root(e *engine, id uint32) {
	packs := "plan"
	switch {
	case e.feat.target != nil:
		packs = "imagined board"
	case e.feat.onGoals:
		packs = "goals"
	case e.pulled:
		packs = "parking plan, pull ordering"
	case e.feat.park != nil:
		packs = "parking plan"
	case e.replanned:
		packs = "replanned plan"
	}
	tr.t.Write("root", struct {
		Opening int64  `json:"opening_expanded"`
		Packs   string `json:"packs"`
		Parked  bool   `json:"parked,omitempty"`
	}{e.stats.Expanded, packs, e.parked})
	tr.newBest(e, id)
}

// newBest records node id, which took the search to a better cell than
// any before: the counters, and the node.
func (tr *tracer) newBest(e *engine, id uint32) {
	tr.best = e.queue.best
	tr.bestAt = tr.t.Elapsed()
	tr.bestExpanded = e.stats.Expanded
	tr.bestNode = id
	tr.t.WriteAt("best", tr.bestAt, struct {
		counters
		Node nodeRecord `json:"node"`
	}{tr.counters(e), tr.node(e, id, nil)})
}

// expanding counts the expansion of node id, whose position is e.pos, in
// its cell, and records a snapshot when one is due.
func (tr *tracer) expanding(e *engine, id uint32) {
	c := e.tree.at(id).cell
	if n := int(c) + 1; n > len(tr.expandedIn) {
		tr.expandedIn = append(tr.expandedIn, make([]int64, n-len(tr.expandedIn))...)
	}
	tr.expandedIn[c]++
	now := time.Now()
	if now.Before(tr.next) {
		return
	}
	tr.next = now.Add(snapshotEvery)
	tr.t.Write("snapshot", struct {
		counters
		bestRecord
		Queued int              `json:"queued"`
		Dead   map[string]int64 `json:"dead"`
		Node   nodeRecord       `json:"node"`
	}{tr.counters(e), tr.bestSince(e), e.queue.queued(), e.tier.deadCounts(), tr.node(e, id, e.pos.Rows())})
}

// cellCount is a cell and the expansions of nodes that waited in it.
type cellCount struct {
	Cell     cellRecord `json:"cell"`
	Expanded int64      `json:"expanded"`
}

// topCells is how many of the cells with the most expansions the end
// record lists.
const topCells = 5

// end records how the strategy ended: its status and counters, the best
// cell, since when and for how long it was best, the board that reached
// it and the boards on its path from the root (to find offline where the
// path went dead), the nodes still waiting in it, the cells the
// expansions went to, and what the deadlock tier found.
func (tr *tracer) end(e *engine, st solver.Status) {
	rec := struct {
		Status solver.Status `json:"status"`
		counters
		*bestRecord
		BestHeld    float64          `json:"best_held_s,omitempty"`
		BestWaiting int              `json:"best_waiting"`
		BestBoard   []string         `json:"best_board,omitempty"`
		BestPath    [][]string       `json:"best_path,omitempty"`
		Top         []cellCount      `json:"top_cells"`
		Dead        map[string]int64 `json:"dead"`
	}{Status: st, counters: tr.counters(e), Dead: e.tier.deadCounts()}
	if tr.best >= 0 {
		b := tr.bestSince(e)
		rec.bestRecord = &b
		rec.BestHeld = seconds(tr.t.Elapsed() - tr.bestAt)
		rec.BestWaiting = e.waiting(tr.best)
		for a := tr.bestNode; a != noParent; a = e.tree.at(a).parent {
			rec.BestPath = append(rec.BestPath, tr.board(e, a))
		}
		slices.Reverse(rec.BestPath)
		rec.BestBoard = rec.BestPath[len(rec.BestPath)-1]
	}
	for c, n := range tr.expandedIn {
		if n > 0 {
			rec.Top = append(rec.Top, cellCount{cellOf(e.queue.cells[c].key), n})
		}
	}
	slices.SortStableFunc(rec.Top, func(a, b cellCount) int { return cmp.Compare(b.Expanded, a.Expanded) })
	rec.Top = rec.Top[:min(len(rec.Top), topCells)]
	tr.t.Write("end", rec)
}

// seconds returns d in seconds, to the tenth of a millisecond as the
// trace's clock (solver.TraceSeconds).
func seconds(d time.Duration) float64 { return solver.TraceSeconds(d) }

func (tr *tracer) counters(e *engine) counters {
	return counters{e.stats.Expanded, e.stats.Generated, e.stats.Stored, len(e.queue.cells)}
}

func (tr *tracer) bestSince(e *engine) bestRecord {
	return bestRecord{cellOf(e.queue.cells[tr.best].key), seconds(tr.bestAt), tr.bestExpanded}
}

// node describes node id; rows is its board, or nil to draw it from the
// store.
func (tr *tracer) node(e *engine, id uint32, rows []string) nodeRecord {
	nd := e.tree.at(id)
	if rows == nil {
		rows = tr.board(e, id)
	}
	depth := 0
	for a := nd.parent; a != noParent; a = e.tree.at(a).parent {
		depth++
	}
	return nodeRecord{Features: cellOf(nd.feat.cell()), Next: nd.feat.next, Dist: nd.feat.dist,
		Cell: cellOf(e.queue.cells[nd.cell].key), InBest: nd.cell == e.queue.best, Weight: nd.weight, Depth: depth, Board: rows}
}

// board draws node id's position.
func (tr *tracer) board(e *engine, id uint32) []string {
	q := e.b.Start()
	q.Unpack(e.tree.store.Key(id))
	return q.Rows()
}

// queued counts the entries in the cells' heaps, stale ones included.
func (q *cellQueue) queued() int {
	n := 0
	for i := range q.cells {
		n += len(q.cells[i].wait)
	}
	return n
}

// waiting counts the nodes waiting in cell c that next would still take
// (current).
func (e *engine) waiting(c int32) int {
	n := 0
	for _, en := range e.queue.cells[c].wait {
		if e.current(en, c) {
			n++
		}
	}
	return n
}

// deadCounts returns the positions each detector found dead so far: the
// tier's own and the checker's switched on.
func (t *tier) deadCounts() map[string]int64 {
	m := map[string]int64{
		"corral":      int64(t.fired[detCorral]),
		"frozengoals": int64(t.fired[detFrozen]),
		"matching":    int64(t.fired[detMatching]),
		"pattern":     int64(t.fired[detPattern]),
		"subtree":     int64(t.fired[detSubtree]),
	}
	for k := deadlock.Kind(0); k < deadlock.NumKinds; k++ {
		if t.checker.On.On(k) {
			m[k.String()] = int64(t.checker.Fired[k])
		}
	}
	return m
}
