package optimize

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"time"

	"soko/deadlock"
	"soko/sokoban"
)

// optimizer holds one Optimize call's board, tables and best solution, kept
// as its pushes: the walks between them are always shortest ones.
type optimizer struct {
	ctx       context.Context
	b         *sokoban.Board
	metric    Metric
	radii     []int // sorted, largest first
	memory    int64
	progress  func(Progress)
	dead      []bool
	checker   *deadlock.Checker
	walk      walker
	region    *sokoban.Region  // searchPushes's regions, made on first use
	graph     graph            // the searches' tables, reused
	near      []sokoban.Square // nearTable: per square its nearN nearest
	nearN     int
	pullTo    [][]int32 // pullsTo's tables, per square
	pullBytes int64     // their memory
	toGoal    []int32   // pushes from each square to the nearest goal, for the last stretch's bound
	rankTab   []uint16  // rankTab[s*N+a]: where a stands among s's nearest, from 1; 0 not among them

	best     []sokoban.Push
	score    Score
	stopped  bool                // a search stopped on the context
	outgrown bool                // the last search stopped at the memory budget
	slow     bool                // the last search stopped at its share of the time
	until    time.Time           // when the running search stops (zero: at the context's end)
	share    int                 // a search gets 1/share of the optimizer's time (0, 1: all that is left)
	total    time.Duration       // the optimizer's time: the context's deadline when it began (0: none)
	cut      bool                // a search of this turn stopped at its share
	tried    map[uint64]struct{} // stretchKey of the searches that ran to their end without a gain
	seed     maphash.Seed
	limited  bool // a search of the shortest stretch outgrew the memory budget
	searches int
	expanded int64
	pass     string
	pushEnd  time.Time // when the turns of the search for pushes alone stop (zero: with the context)
	pushOnly bool      // the vicinity searches are searchPushes (vicinity)
}

func newOptimizer(ctx context.Context, b *sokoban.Board, metric Metric, radii []int, memory int64, progress func(Progress)) *optimizer {
	dead := deadlock.DeadSquares(b)
	o := &optimizer{
		ctx: ctx, b: b, metric: metric, radii: radii, memory: memory, progress: progress,
		dead:    dead,
		checker: deadlock.NewChecker(b, dead, deadlock.Core()),
		walk:    newWalker(b),
		tried:   make(map[uint64]struct{}),
		seed:    maphash.MakeSeed(),
	}
	if d, ok := ctx.Deadline(); ok {
		o.total = time.Until(d)
	}
	return o
}

// run applies the passes in order until the context ends.
func (o *optimizer) run() {
	if o.done() {
		return
	}
	o.begin("cycles")
	o.cutCycles()
	if o.done() {
		return
	}
	o.begin("runs")
	if len(o.best) >= shareFrom {
		o.share = firstShare // a search of a run that takes its share is left out
	}
	o.boxRuns()
	if len(o.radii) > 0 && !o.done() {
		o.begin("vicinity")
		o.vicinity()
	}
}

// done reports whether the optimizer stops: on the context, or, for the
// search for pushes alone, at the end of its share of the time.
func (o *optimizer) done() bool {
	if o.pushOnly && !o.pushEnd.IsZero() && time.Now().After(o.pushEnd) {
		return true
	}
	return o.stopped || o.ctx.Err() != nil
}

func (o *optimizer) begin(pass string) {
	o.pass = pass
	o.report()
}

func (o *optimizer) report() {
	if o.progress != nil {
		o.progress(Progress{Score: o.score, Pass: o.pass})
	}
}

// accept makes pushes, of score s, the best solution if it is shorter.
func (o *optimizer) accept(pushes []sokoban.Push, s Score) bool {
	if !o.metric.Better(s, o.score) {
		return false
	}
	o.best, o.score = pushes, s
	o.report()
	return true
}

// scoreOf counts the pushes and moves of a push sequence from the start
// with shortest walks.
func (o *optimizer) scoreOf(pushes []sokoban.Push) Score {
	p := o.b.Start()
	return Score{Pushes: len(pushes), Moves: o.walkCost(p, pushes)}
}

// walkCost plays pushes on p with shortest walks and returns the moves
// taken, pushes included. p is changed.
func (o *optimizer) walkCost(p *sokoban.Position, pushes []sokoban.Push) int {
	moves := 0
	for _, m := range pushes {
		moves += o.walk.distance(p, o.b.Next(m.Box, m.Dir^1)) + 1
		p.Apply(m)
	}
	return moves
}

// cutCycles removes the pushes between two visits of one position: the
// same boxes with the player in the same region. The cut always saves
// pushes; for the moves metric it is made only when the walk that replaces
// the cycle is not longer than the cycle with its final walk.
func (o *optimizer) cutCycles() {
	pushes := o.best
	p := o.b.Start()
	var keys []string
	var key []byte
	for i := 0; ; i++ {
		key = p.Pack(key[:0])
		keys = append(keys, string(key))
		if i == len(pushes) {
			break
		}
		p.Apply(pushes[i])
	}
	last := make(map[string]int, len(keys))
	for t, k := range keys {
		last[k] = t
	}
	cur := o.b.Start() // the position the kept pushes lead to; same boxes and region as position i
	var out []sokoban.Push
	for i := 0; i < len(pushes); {
		if j := last[keys[i]]; j > i && o.cutPays(cur, pushes, i, j) {
			i = j
			continue
		}
		cur.Apply(pushes[i])
		out = append(out, pushes[i])
		i++
	}
	o.accept(out, o.scoreOf(out))
}

// cutPays reports whether cutting pushes[i:j] is no longer in moves when
// the player stands where cur has them: the cycle and the walk to the next
// push against the walk to the next push alone.
func (o *optimizer) cutPays(cur *sokoban.Position, pushes []sokoban.Push, i, j int) bool {
	if o.metric == Pushes || j == len(pushes) {
		return true
	}
	kept := o.walkCost(cur.Clone(), pushes[i:j+1])
	cut := o.walkCost(cur.Clone(), pushes[j:j+1])
	return cut <= kept
}

// boxRuns replaces each run of two or more consecutive pushes of one box by
// a cheapest way between the positions before and after it that moves one
// box at a time off the run's positions, anywhere on the board.
func (o *optimizer) boxRuns() {
	for i := 0; i < len(o.best) && !o.done(); {
		j := i + 1
		for j < len(o.best) && o.best[j].Box == o.b.Next(o.best[j-1].Box, o.best[j-1].Dir) {
			j++
		}
		if j-i >= 2 && o.improve(i, j, []int{unlimited}) {
			continue // the run at i is now another: look at it again
		}
		i = j
	}
}

// vicinity runs turns of vicinity searches (vicinityTurns), first with
// each search bounded to a share of the optimizer's time (1/firstShare), so that
// no stretch whose vicinity is huge takes all the time while cheaper ones
// elsewhere wait; when a turn ends with a search cut short by its share,
// the turns start again with twice the share, and the last has none.
// Solutions shorter than shareFrom pushes get a single turn with none.
//
// In the pushes metric the turns run twice: first with searchPushes, which
// stores one position per player region instead of one per square, for at
// most pushShare of the time left; then over exact squares for fewer moves
// with the rest.
func (o *optimizer) vicinity() {
	if o.metric == Pushes {
		if d, ok := o.ctx.Deadline(); ok {
			o.pushEnd = time.Now().Add(time.Duration(pushShare * float64(time.Until(d))))
		}
		o.pushOnly = true
		o.vicinitySchedule()
		o.pushOnly, o.pushEnd = false, time.Time{}
	}
	o.vicinitySchedule()
}

// vicinitySchedule is one schedule of vicinity's turns.
func (o *optimizer) vicinitySchedule() {
	if len(o.best) < shareFrom {
		o.share = 0
		o.vicinityTurns()
		return
	}
	for share := firstShare; !o.done(); share /= 2 {
		o.share, o.cut = share, false
		o.vicinityTurns()
		if !o.cut || share <= 1 {
			return
		}
	}
}

// pushShare is the most of the time left when the vicinity turns begin
// that the turns of the search for pushes alone take under a deadline; the
// turns over exact squares have the rest, in which they cut moves at as
// many pushes (docs/optimize.md, "The matching bound").
const pushShare = 0.8

// shareFrom is the shortest solution, in pushes, whose searches get shares
// of the time: on shorter ones the few stretches need no such turns, and
// the searches cut short and run again would waste their time.
const shareFrom = 128

// firstShare is the inverse of the share of the optimizer's time that one stretch
// search gets in the first turns of the vicinity search.
const firstShare = 16

// vicinityTurns searches stretches of the solution. Stretches start short
// (firstStretch pushes, firstPushStretch with searchPushes) and slide by
// half their length, wrapping round at the end; when every stretch has
// been searched once since the last gain, their length doubles, up to the
// whole solution (at most maxStretch pushes), and the search ends when a
// turn of the longest brings no gain.
// A stretch whose search outgrows the memory, or its share of the time, is
// halved, and stretches stay at most that long from then on.
func (o *optimizer) vicinityTurns() {
	first := firstStretch
	if o.pushOnly {
		first = firstPushStretch
	}
	size, ceiling := min(len(o.best), first), maxStretch
	quiet := 0 // stretches searched since the last gain
	for i := 0; !o.done(); {
		n := len(o.best)
		size = min(size, n)
		step := max(size/2, 1)
		j := min(i+size, n)
		gained := o.improve(i, j, o.radii)
		switch {
		case o.done():
			return
		case gained:
			quiet = 0
			continue // the same stretch again: it may shrink further
		case o.slow:
			o.cut = true
			if size > minStretch {
				size /= 2
				ceiling, quiet = size, 0
				continue
			}
		case o.outgrown && size > minStretch:
			size /= 2
			ceiling, quiet = size, 0
			continue
		case o.outgrown:
			o.limited = true // this stretch stays unsearched
		}
		quiet++
		if quiet >= (max(n-size, 0)+step-1)/step+1 { // every start 0, step, 2·step, … up to n − size
			if size >= min(n, ceiling) {
				return
			}
			size, quiet, i = min(2*size, ceiling), 0, 0
			continue
		}
		if i += step; j == n {
			i = 0
		}
	}
}

// minStretch is the shortest stretch the vicinity search splits down to;
// firstStretch the length it starts with (firstPushStretch for
// searchPushes: docs/optimize.md, "Pushes first"); maxStretch the longest
// it grows to, since testing a position against the vicinity takes time in
// proportion to the stretch.
const (
	minStretch       = 4
	firstStretch     = 32
	firstPushStretch = 16
	maxStretch       = 1024
)

// improve searches the vicinity of the stretch of pushes i..j of the best
// solution and replaces the stretch when the search found a path that costs
// less. It reports whether it did.
func (o *optimizer) improve(i, j int, radii []int) bool {
	start := o.b.Start()
	for _, m := range o.best[:i] {
		start.Apply(m)
	}
	seg := o.best[i:j]
	var next *sokoban.Push
	if j < len(o.best) {
		next = &o.best[j]
	}
	o.outgrown, o.slow = false, false // of this stretch's search, not the last one
	key := o.stretchKey(start, seg, next, radii)
	if _, ok := o.tried[key]; ok {
		return false // searched to its end before, with no gain
	}
	o.until = o.searchEnd()
	if o.pushOnly {
		return o.improvePushes(start, seg, next, i, j, key, radii)
	}
	path, gain, ok := o.search(start, seg, next, radii)
	if !ok {
		if !o.slow && !o.outgrown && !o.done() {
			o.tried[key] = struct{}{}
		}
		return false
	}
	out := o.splice(i, j, path)
	// The path ends with the boxes where the stretch left them, and its
	// gain counts the walk to the next push: the rest is unchanged.
	return o.accept(out, Score{Pushes: o.score.Pushes - gain.Pushes, Moves: o.score.Moves - gain.Moves})
}

// searchEnd returns when a stretch's search stops (zero: with the
// context): at the end of its share of the optimizer's time, and a search
// for pushes alone no later than the end of those turns (pushShare), which
// done only looks at between searches.
func (o *optimizer) searchEnd() time.Time {
	var end time.Time
	if o.total > 0 && o.share > 1 {
		end = time.Now().Add(o.total / time.Duration(o.share))
	}
	if o.pushOnly && !o.pushEnd.IsZero() && (end.IsZero() || o.pushEnd.Before(end)) {
		end = o.pushEnd
	}
	return end
}

// polishRadii are the largest radii of the search for fewer moves that
// follows a gain of searchPushes on the stretch it replaced: smaller than
// the default's, since it searches every path of as many pushes.
var polishRadii = []int{10, 5}

// polish returns the radii of that search for vicinity radii: each no
// larger than polishRadii's or the vicinity's, as many as the fewer of
// the two have.
func polish(radii []int) []int {
	out := make([]int, min(len(radii), len(polishRadii)))
	for i := range out {
		out[i] = min(radii[i], polishRadii[i])
	}
	return out
}

// improvePushes is improve's step with searchPushes. A shorter path is
// accepted, and its stretch is searched again over exact squares for
// fewer moves at as many pushes: searchPushes takes any path of the
// fewest pushes, and its walks can be long.
func (o *optimizer) improvePushes(start *sokoban.Position, seg []sokoban.Push, next *sokoban.Push, i, j int, key uint64, radii []int) bool {
	path, ok := o.searchPushes(start, seg, next, radii)
	if !ok {
		if !o.slow && !o.outgrown && !o.done() {
			o.tried[key] = struct{}{}
		}
		return false
	}
	out := o.splice(i, j, path)
	if !o.accept(out, o.scoreOf(out)) {
		return false
	}
	o.pushOnly = false
	o.improve(i, i+len(path), polish(radii))
	o.pushOnly = true
	o.outgrown, o.slow = false, false // the polish's, not this search's
	return true
}

// splice returns the best solution with its pushes i..j replaced by path.
func (o *optimizer) splice(i, j int, path []sokoban.Push) []sokoban.Push {
	out := make([]sokoban.Push, 0, i+len(path)+len(o.best)-j)
	out = append(out, o.best[:i]...)
	out = append(out, path...)
	return append(out, o.best[j:]...)
}

// stretchKey hashes what a stretch search depends on: the position it
// starts from (the player's exact square), the stretch's pushes, the push
// after it (none for the last stretch) and the radii. A search that ran
// to its end without a gain is not run again on the same key (o.tried):
// after a gain elsewhere, or in a later turn, it would find nothing again.
func (o *optimizer) stretchKey(start *sokoban.Position, seg []sokoban.Push, next *sokoban.Push, radii []int) uint64 {
	var h maphash.Hash
	h.SetSeed(o.seed)
	h.Write(start.PackExact(nil))
	var buf [8]byte
	push := func(m sokoban.Push) {
		binary.LittleEndian.PutUint32(buf[:4], uint32(m.Box))
		buf[4] = byte(m.Dir)
		h.Write(buf[:5])
	}
	for _, m := range seg {
		push(m)
	}
	if next != nil {
		buf[0] = 1
		h.Write(buf[:1])
		push(*next)
	}
	for _, r := range radii {
		binary.LittleEndian.PutUint32(buf[:4], uint32(r))
		h.Write(buf[:4])
	}
	if o.pushOnly {
		h.Write([]byte{1})
	}
	return h.Sum64()
}
