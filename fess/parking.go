package fess

import (
	"context"
	"time"
	"unsafe"

	"soko/sokoban"
)

// parking is the parking plan of the park strategy: where the plan strategy
// only orders the goals (plan), a parking plan is a list of box moves,
// first made first, in which a box may stop on a square that is not its
// goal (it is parked there) and be moved on by a later entry. It comes
// from a backward search (parkSearch) from the solved position in which a
// box pulled into the sink, a group of start squares that a lone box can
// be pushed between both ways, leaves the board: going forward, such a box
// comes out of the sink, so the sink stands for the boxes that wait there
// in the start position whichever of them goes first.
type parking struct {
	entries []parkEntry
	// byUntil[j] lists the entries whose box entry j moves on.
	byUntil [][]int32
	// ok[k] is the squares a box may stand on at step k (the first k
	// entries done) without being out of plan: the squares of entries
	// before k whose box is still parked or packed there, and the zone of
	// the step, where a lone box can be pushed to the square of an entry
	// from k on with those boxes standing as walls. Bit s%64 of word s/64.
	ok [][]uint64
}

// parkEntry is one step of a parking plan: a box goes from from to to (from
// == to for a box that stays on its goal all along). until is the entry
// that moves the box on from to, -1 when it stays there to the end; sink is
// set when the box comes out of the sink.
type parkEntry struct {
	from, to sokoban.Square
	until    int32
	sink     bool
}

// packed is the parking plan's count of packed boxes (Festival's prefix
// count): the longest prefix of the entries each of whose squares holds a
// box, but where an entry whose box a later entry of the prefix moves on
// may be empty. Unlike a prefix of goals this can grow back past an entry
// that fails: a box taken straight to where a parked one goes next counts
// once the entry that moves the parked box is reached.
func (pk *parking) packed(p *sokoban.Position) int {
	unmet, n := 0, 0
	for k, en := range pk.entries {
		if !p.HasBox(en.to) {
			unmet++
		}
		for _, i := range pk.byUntil[k] {
			if !p.HasBox(pk.entries[i].to) {
				unmet--
			}
		}
		if unmet == 0 {
			n = k + 1
		}
	}
	return n
}

// outOfPlan counts the boxes of p that stand where step packed of the plan
// has no use for them (ok).
func (pk *parking) outOfPlan(p *sokoban.Position, packed int) int {
	ok, n := pk.ok[packed], 0
	for _, s := range p.BoxSquares() {
		if ok[s/64]&(1<<(s%64)) == 0 {
			n++
		}
	}
	return n
}

// parkWork bounds the pull-search states the zones of a parking plan may
// visit; past it the zones left take every square as in line.
const parkWork = 20_000_000

// newParking builds the plan of entries (until worked out here) with its
// zones, using g (no boxes placed) for the pull searches.
func newParking(ctx context.Context, b *sokoban.Board, g *macroGen, entries []parkEntry) (*parking, error) {
	pk := &parking{entries: entries, byUntil: make([][]int32, len(entries))}
	for i := range entries {
		entries[i].until = -1
		for j := i + 1; j < len(entries); j++ {
			if entries[j].from == entries[i].to {
				entries[i].until = int32(j)
				pk.byUntil[j] = append(pk.byUntil[j], int32(i))
				break
			}
		}
	}
	words := (b.N + 63) / 64
	anywhere := func(sokoban.Square) bool { return true }
	work := 0
	for k := 0; k <= len(entries); k++ {
		ok := make([]uint64, words)
		set := func(s sokoban.Square) { ok[s/64] |= 1 << (s % 64) }
		var walls []sokoban.Square
		for i := range k {
			if u := entries[i].until; u < 0 || int(u) >= k {
				walls = append(walls, entries[i].to)
				set(entries[i].to)
			}
		}
		if work > parkWork {
			for i := range ok {
				ok[i] = ^uint64(0)
			}
			pk.ok = append(pk.ok, ok)
			continue
		}
		g.place(walls)
		for j := k; j < len(entries); j++ {
			// A pull search takes milliseconds on the largest boards,
			// and a step has one per entry left.
			if err := ctx.Err(); err != nil {
				g.lift(walls)
				return nil, err
			}
			to := entries[j].to
			g.split(to)
			g.search(to, anywhere, true)
			work += len(g.queue) + len(g.Met)
			for _, st := range g.queue {
				set(sokoban.Square(st / 4))
			}
		}
		g.lift(walls)
		pk.ok = append(pk.ok, ok)
	}
	return pk, nil
}

// bytes returns the memory the plan takes.
func (pk *parking) bytes() int64 {
	n := int64(unsafe.Sizeof(parkEntry{})) * int64(len(pk.entries))
	for _, ok := range pk.ok {
		n += 8 * int64(len(ok))
	}
	return n
}

// parkPlanTime bounds the parking search of ParkPlan: an expansion takes
// about a second on a 128×128 board with 255 boxes.
const parkPlanTime = 2 * time.Second

// ParkEntry is one step of a parking plan, for people (soko analyze): a box
// goes from From to To (From == To: it stays on its goal), Until is the
// step that moves it on (-1: none), Sink says it comes out of the sink.
type ParkEntry struct {
	From, To sokoban.Square
	Until    int
	Sink     bool
}

// ParkPlan returns the parking plan of board b that the park strategy
// (with moving, the sink strategy; with pullOrder too, the pull strategy)
// follows, worked out by at most parkNodes expansions of the parking
// search within parkPlanTime (each ordering it tries on its part of them:
// parkOrders), and the squares of the sink
// (none for the moving sink); complete is false when the search found no
// position to start from, and the plan starts from the best of its first
// ordering. It returns ctx.Err() when ctx is done first.
func ParkPlan(ctx context.Context, b *sokoban.Board, moving, pullOrder bool) (plan []ParkEntry, sink []sokoban.Square, complete bool, err error) {
	dist, err := b.PullDistances(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	var entries []parkEntry
	for i, o := range parkOrders(moving, pullOrder) {
		ps, err := newParkSearch(ctx, b, nearestGoal(dist, b.N), moving, o.pull)
		if err != nil {
			return nil, nil, false, err
		}
		if !moving { // one ordering
			for s := sokoban.Square(0); int(s) < b.N; s++ {
				if ps.sink[s] {
					sink = append(sink, s)
				}
			}
		}
		nodes := int(parkNodes * o.part)
		deadline := time.Now().Add(time.Duration(float64(parkPlanTime) * o.part))
		ps.stop = func() bool { return ctx.Err() != nil || time.Now().After(deadline) }
		for range nodes {
			if !ps.step() {
				break
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, false, err
		}
		if i == 0 || ps.done >= 0 {
			entries = ps.entries(ps.end())
		}
		if complete = ps.done >= 0; complete {
			break
		}
	}
	pk, err := newParking(ctx, b, newMacroGen(b, nil), entries)
	if err != nil {
		return nil, nil, false, err
	}
	for _, en := range pk.entries {
		plan = append(plan, ParkEntry{From: en.from, To: en.to, Until: int(en.until), Sink: en.sink})
	}
	return plan, sink, complete, nil
}
