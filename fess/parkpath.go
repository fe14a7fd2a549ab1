package fess

import (
	"slices"

	"soko/sokoban"
)

// entries turns the path to node end, shortened (shorten), into the
// parking plan's entries (until not yet set): first a box standing still
// for each box of end off the start squares and each goal whose box never
// moves, then each pull of the path undone, last pull first, a box moved
// twice in a row going at once. The end is the node the search ended at, or where it found none,
// its best: then the forward search has to bring boxes to end's squares
// off the start squares first, as the imagine strategy packs towards its
// imagined board.
func (ps *parkSearch) entries(end int32) []parkEntry {
	var path []parkNode
	id := end
	for ; ps.nodes[id].parent >= 0; id = ps.nodes[id].parent {
		path = append(path, ps.nodes[id])
	}
	slices.Reverse(path)
	path = ps.shorten(id, path)
	slices.Reverse(path)
	moved := make([]bool, ps.b.N)
	for _, nd := range path {
		moved[nd.from] = true
	}
	var out []parkEntry
	ps.unpack(end)
	for _, s := range ps.boxes {
		if !ps.start[s] || (ps.b.IsGoal(s) && !moved[s]) {
			out = append(out, parkEntry{from: s, to: s})
		}
	}
	// path holds the pulls last first: undone in that order. A box
	// taken round and back stays where it is.
	for _, nd := range path {
		if nd.from == nd.to {
			continue
		}
		if n := len(out); n > 0 && out[n-1].to == nd.to && out[n-1].from != out[n-1].to {
			out[n-1].to = nd.from
			if out[n-1].from == out[n-1].to {
				out = out[:n-1] // there and back: no move
			}
			continue
		}
		out = append(out, parkEntry{from: nd.to, to: nd.from, sink: nd.removed})
	}
	return out
}

// shorten leaves out of path, the pulls from root (first first), the pulls
// without which the rest still pulls every box to the same square in the
// end: a best-first path wanders, shuffling boxes it needs to move at
// all, and each shuffle left in would be a parking the forward search has
// to make. A pull left in takes its box from wherever it stands then to
// its square, the player walking from where the pull before left him.
// Each pull is tried once, last first.
func (ps *parkSearch) shorten(root int32, path []parkNode) []parkNode {
	player := ps.unpack(root)
	start := slices.Clone(ps.boxes)
	// Which box each pull moves, by the start's index.
	ids := make([]int, len(path))
	at := make([]int, ps.b.N)
	for i := range at {
		at[i] = -1
	}
	for k, s := range start {
		at[s] = k
	}
	for i, nd := range path {
		ids[i] = at[nd.from]
		at[nd.from] = -1
		if !nd.removed {
			at[nd.to] = ids[i]
		}
	}
	keep := make([]bool, len(path))
	for i := range keep {
		keep[i] = true
	}
	want, ok := ps.replay(start, player, path, ids, keep)
	if !ok {
		return path // replay is stricter than the search here: keep it whole
	}
	for i := len(path) - 1; i >= 0; i-- {
		keep[i] = false
		if got, ok := ps.replay(start, player, path, ids, keep); !ok || !slices.Equal(got, want) {
			keep[i] = true
		}
	}
	var out []parkNode
	pos := slices.Clone(start)
	for i, nd := range path {
		if keep[i] && (pos[ids[i]] != nd.to || nd.from == nd.to) {
			out = append(out, parkNode{from: pos[ids[i]], to: nd.to, side: nd.side, removed: nd.removed})
			pos[ids[i]] = nd.to
		}
	}
	return out
}

// replay makes the pulls of path that keep says, each of box ids[i] of
// start to its square, the player starting on player, and returns the
// boxes' squares in the end, sorted; ok is false when a pull cannot be
// made (or a removal no longer keeps the sink's rule). A pull whose box
// stands on its square already is left out, unless it was made so: a box
// taken round and back, to let the player into another area.
func (ps *parkSearch) replay(start []sokoban.Square, player sokoban.Square, path []parkNode, ids []int, keep []bool) (end []sokoban.Square, ok bool) {
	g, b := ps.g, ps.b
	pos := slices.Clone(start)
	g.place(pos)
	defer func() {
		for _, s := range pos {
			if s != sokoban.None {
				g.occ[s] = false
			}
		}
	}()
	reach := func(s sokoban.Square) bool { return ps.seen.Has(int32(s)) }
	taken := make([]bool, b.N) // the moving sink's start squares taken
	for i, nd := range path {
		if !keep[i] {
			continue
		}
		s := pos[ids[i]]
		if s == nd.to && !nd.removed && nd.from != nd.to {
			continue // the box is there already
		}
		if s == sokoban.None || (s == nd.to && nd.removed) {
			return nil, false
		}
		switch {
		case nd.removed && ps.moving:
			if !ps.start[nd.to] || taken[nd.to] {
				return nil, false
			}
			taken[nd.to] = true
		case nd.removed && !ps.leaves(s, nd.to):
			return nil, false
		}
		ps.flood(player)
		g.split(s)
		g.search(s, reach, true)
		// The player ends where the search's pull left him if he can,
		// else on any side.
		found := false
		for _, st := range g.queue {
			if sokoban.Square(st/4) == nd.to && g.dist[st] > 0 && (!found || sokoban.Dir(st%4) == nd.side) {
				found, player = true, b.Next(nd.to, sokoban.Dir(st%4))
			}
		}
		if !found {
			return nil, false
		}
		g.occ[s] = false
		pos[ids[i]] = sokoban.None
		if !nd.removed {
			g.occ[nd.to] = true
			pos[ids[i]] = nd.to
		}
	}
	for _, s := range pos {
		if s != sokoban.None {
			end = append(end, s)
		}
	}
	slices.Sort(end)
	return end, true
}
