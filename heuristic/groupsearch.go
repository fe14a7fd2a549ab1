package heuristic

import (
	"encoding/binary"
	"slices"

	"soko/internal/bucketq"
	"soko/sokoban"
)

// groupSearch is the set-up's search of a group's problem (solve): a small
// A* per candidate group, within a budget of expansions.
type groupSearch struct {
	*groupBoard
	// nodes is each sub-search's budget of expansions.
	nodes int
	sub   subSearch
	key   []byte
	moves []subMove

	// Searches and Nodes count the sub-searches of the set-up and their
	// expansions.
	Searches, Nodes int64
}

// groupNodes is the expansion budget of one sub-search.
const groupNodes = 20000

// subSearch is the scratch of groupSearch.solve: the states of one A* over
// the pushes of a group's boxes alone, k boxes each.
type subSearch struct {
	index  *sokoban.Store   // the states met (packGroup), their ids in order
	boxes  []sokoban.Square // k per state
	player []sokoban.Square // canonical
	g      []int32
	prio   []int32
	open   bucketq.Queue
}

func (s *subSearch) bytes() int64 {
	return int64(cap(s.boxes))*2 + int64(cap(s.g))*16 + s.index.Bytes() + s.open.Bytes()
}

// solve finds the fewest pushes that put boxes (sorted) on free goals,
// alone on the board with the walls, the player on canon (a canonical
// square), by A* on the match bound with reopening, within gs.nodes
// expansions. Out of budget, it returns the largest f it expanded, a lower
// bound: the open list always holds a state of an optimal solution reached
// by an optimal path, whose f is at most the optimum.
func (gs *groupSearch) solve(boxes []sokoban.Square, canon sokoban.Square) groupEntry {
	gs.Searches++
	k := len(boxes)
	h0, ok := gs.match(boxes)
	if !ok {
		return groupEntry{}
	}
	s := &gs.sub
	if s.index == nil {
		s.index = sokoban.NewStore(2 * (k + 1))
	}
	s.index.ResetKeys(2 * (k + 1))
	s.boxes, s.player, s.g, s.prio = s.boxes[:0], s.player[:0], s.g[:0], s.prio[:0]
	s.open.Reset()
	add := func(bx []sokoban.Square, pl sokoban.Square, g, h int32) {
		gs.key = packGroup(gs.key[:0], bx, pl)
		id, fresh := s.index.Intern(gs.key, hashGroup(bx, pl))
		if !fresh {
			if g < s.g[id] {
				s.g[id], s.prio[id] = g, g+h
				s.open.Push(int(g+h), int(h), id)
			}
			return
		}
		s.boxes = append(s.boxes, bx...)
		s.player = append(s.player, pl)
		s.g, s.prio = append(s.g, g), append(s.prio, g+h)
		s.open.Push(int(g+h), int(h), id)
	}
	add(boxes, canon, 0, h0)
	bound := h0
	work := make([]sokoban.Square, k)
	for expanded := 0; ; {
		id, f, ok := s.open.Pop()
		if !ok {
			return groupEntry{} // no solution
		}
		if int32(f) != s.prio[id] {
			continue
		}
		s.prio[id] = -1 // expanded; a shorter path queues it again
		bound = max(bound, int32(f))
		bx := s.boxes[int(id)*k : int(id)*k+k]
		if gs.onGoals(bx) {
			bound = s.g[id]
		}
		if gs.onGoals(bx) || expanded >= gs.nodes {
			return groupEntry{pushes: bound, ok: true}
		}
		expanded++
		gs.Nodes++
		gs.reach(bx, s.player[id])
		moves := gs.moves[:0]
		for i, box := range bx {
			for d := range sokoban.Dirs {
				behind, front := gs.b.Next(box, d^1), gs.b.Next(box, d)
				if behind >= 0 && front >= 0 && gs.reached.Has(behind) && !gs.wall[front] && !gs.dead[front] && !slices.Contains(bx, front) {
					moves = append(moves, subMove{box: i, to: front})
				}
			}
		}
		gs.moves = moves
		for _, mv := range moves {
			moveSorted(work, bx, mv.box, mv.to)
			h, ok := gs.match(work)
			if !ok {
				continue
			}
			add(work, gs.reach(work, bx[mv.box]), s.g[id]+1, h)
			bx = s.boxes[int(id)*k : int(id)*k+k] // add may have moved the states
		}
	}
}

// hashGroup hashes sorted boxes and the player's square, for the store.
func hashGroup(boxes []sokoban.Square, canon sokoban.Square) uint64 {
	h := uint64(canon) * 0x9e3779b97f4a7c15
	for _, s := range boxes {
		h = (h ^ uint64(s)) * 0x9e3779b97f4a7c15
	}
	return h ^ h>>29
}

// packGroup appends the key of sorted boxes with the player on canon.
func packGroup(dst []byte, boxes []sokoban.Square, canon sokoban.Square) []byte {
	for _, s := range boxes {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(s))
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(canon))
}
