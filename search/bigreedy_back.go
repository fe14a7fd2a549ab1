package search

import (
	"soko/deadlock"
	"soko/internal/bucketq"
	"soko/sokoban"
)

// expandBackward expands the backward search's next state: every pull of
// one box one square (the box moves towards the player, who steps back
// one more square) to a state not stored before is stored, linked by the
// push that undoes the pull, and queued on the backward bound; a pull
// that stops a box where no box can come from is not made (the start
// cannot reach that state, nor, since pushes lead on from it only to
// states pulls lead back to it from, any state pulled from it). A pull to
// a state the forward search stored is the meeting, and pushes is then the
// whole solution.
func (s *biSearch) expandBackward() (met bool, pushes []sokoban.Push, err error) {
	g := s.g
	id, ph, ok := s.back.Pop()
	if !ok {
		s.backOpen = false
		return false, nil, nil
	}
	p, b := g.pos, g.board
	if s.startLater != nil && s.backExpanded >= tableAfter {
		s.buildStartTable()
	}
	p.Unpack(g.store.Key(id))
	g.stats.Expanded++
	s.backExpanded++
	s.expanded(biBackward, ph)
	var h int32 // the simple bound, which each pull changes in one term
	if s.backLB != nil {
		s.backLB.SetBase(p, id) // each child's matching is repaired from it
	} else {
		h, _ = s.simpleBound(p, s.nearStart)
	}
	s.pullsOf(p)
	depth := int(s.depth[id]) + 1
	if depth > maxDepth {
		s.backCut = s.backCut || len(s.pulls) > 0
		return false, nil, nil
	}
	s.pullChildren(p)
	for i, m := range s.pulls {
		if st, stop := g.pulse(); stop {
			g.halt = st
			return false, nil, nil
		}
		g.stats.Generated++
		c := s.pulled[i]
		if c.dead {
			s.unreachable++
			continue
		}
		to := p.Apply(m) // the box moves as pulled; the player stands behind it
		p.SetPlayer(b.Next(to, m.Dir))
		undo := sokoban.Push{Box: to, Dir: m.Dir ^ 1}
		g.key = p.PackAt(g.key[:0], c.canon)
		child, fresh := g.store.Intern(g.key, c.hash)
		switch {
		case fresh:
			g.links.Append(link{id, viaOf(undo, 1)})
			g.stats.Stored++
			s.side, s.depth = append(s.side, biBackward), append(s.depth, uint16(depth))
			ch, ok := h-s.nearStart[m.Box]+s.nearStart[to], true
			if s.backLB != nil {
				ch, ok = s.backLB.Child(p)
			}
			if ok {
				s.back.Push(queued(int(ch)), s.backTie(depth), child)
			}
		case s.side[child] == biForward:
			pushes, err = g.pathTo(child)
			pushes = append(pushes, undo)
			return true, s.backPath(pushes, id), err
		}
		p.Apply(undo)
	}
	return false, nil, nil
}

// pullsOf sets s.pulls to the pulls of p, taking p's region (g.region),
// which gives p's reach and each pull's canonical player square without a
// fill.
func (s *biSearch) pullsOf(p *sokoban.Position) {
	b := s.g.board
	s.g.region.Of(p)
	s.pulls = s.pulls[:0]
	for _, sq := range p.BoxSquares() {
		for d := range sokoban.Dirs {
			to := b.Next(sq, d)
			if to < 0 || p.HasBox(to) || !p.Reachable(to) || s.nearStart[to] == sokoban.Unreachable {
				continue
			}
			if back := b.Next(to, d); back >= 0 && !p.HasBox(back) {
				s.pulls = append(s.pulls, sokoban.Push{Box: sq, Dir: d})
			}
		}
	}
}

// pulledChild is what the backward expansion knows of a pull's child
// before interning it: dropped by the start table, or its canonical
// player square and hash.
type pulledChild struct {
	dead  bool
	canon sokoban.Square
	hash  uint64
}

// pullChildren works out s.pulled for the pulls of p (s.pulls; g.region
// holds p's region) and loads the store's slots for the children that
// are not dropped.
func (s *biSearch) pullChildren(p *sokoban.Position) {
	b := s.g.board
	s.pulled, s.pullHashes = s.pulled[:0], s.pullHashes[:0]
	for _, m := range s.pulls {
		to := p.Apply(m)
		p.SetPlayer(b.Next(to, m.Dir))
		c := pulledChild{dead: s.startTable != nil && s.startTable.DeadAfterPush(p, to)}
		if !c.dead {
			canon, ok := s.g.region.AfterPull(p, m.Box, to)
			if !ok {
				canon = p.Reach()
			}
			c.canon, c.hash = canon, p.HashAt(canon)
			s.pullHashes = append(s.pullHashes, c.hash)
		}
		s.pulled = append(s.pulled, c)
		p.Apply(sokoban.Push{Box: to, Dir: m.Dir ^ 1})
	}
	s.g.store.Touch(s.pullHashes)
}

// backTie is the backward search's tie-break among states of one bound
// reached after depth pulls: the shallower first, or with backdeep the
// deeper first.
func (s *biSearch) backTie(depth int) int {
	if s.backDeep {
		return bucketq.MaxTie - min(depth, bucketq.MaxTie)
	}
	return depth
}

// buildStartTable builds the start table, as buildTable the forward
// table.
func (s *biSearch) buildStartTable() {
	limits := *s.startLater
	s.startLater = nil
	s.startTable = s.g.newTable(deadlock.NewStartTable, limits)
}
