package optimize

import (
	"time"

	"soko/sokoban"
)

// searchPushes is search for fewer pushes alone: the same vicinity, the
// same bound and the same end, but a position is its boxes and the
// player's region (the canonical square), and a path costs its pushes. It
// returns a path of fewer pushes than seg, or ok false.
//
// In the pushes metric most stretches have no shorter path, and proving
// that is what a search spends its time on. Keyed by regions, this search
// stores one position per region instead of one per square a push leaves
// the player on: with the sum bound both searches had first, it proved
// that in about a third of the expansions of the search over exact
// squares (docs/optimize.md, "Pushes first"). Walks are left to the
// search over exact squares (improvePushes, vicinity).
//
// The bound is search's (newEndMatch), which proves most stretches have no
// shorter path at or near their first position (docs/optimize.md, "The
// matching bound"). The open list orders by the bound, and among equal
// bounds the deepest first, which reaches an end sooner when one exists.
func (o *optimizer) searchPushes(start *sokoban.Position, seg []sokoban.Push, next *sokoban.Push, radii []int) (path []sokoban.Push, ok bool) {
	o.searches++
	v := newStretch(o, start, seg, radii)
	if o.done() {
		return nil, false
	}
	b := o.b
	end := start.Clone()
	for _, m := range seg {
		end.Apply(m)
	}
	toGo, nextBehind := o.target(end, next)
	targetKey := end.Pack(nil)
	boxBytes := len(targetKey) - len(targetKey)/(len(end.BoxSquares())+1) // the packed boxes, without the player
	old := int64(len(seg))
	const depthSpan = 2 * maxStretch // g < depthSpan: f·depthSpan + (depthSpan−1−g) orders by f, then deepest
	order := func(f, g int64) int64 { return f*depthSpan + depthSpan - 1 - g }
	if o.region == nil {
		o.region = sokoban.NewRegion(b)
	}
	r := o.region
	em := o.newEndMatch(end.BoxSquares())

	g := o.graph.reset(b)
	pos := start.Clone()
	key := pos.Pack(nil)
	g.store.Intern(key, pos.Hash())
	g.add(noParent, sokoban.Push{}, 0)
	h0, feasible := em.Bound(pos)
	if !feasible {
		return nil, false
	}
	g.open.push(item{f: order(int64(h0), 0), g: 0, id: 0})
	boxes := make([]sokoban.Square, 0, len(pos.BoxSquares()))
	for len(g.open) > 0 {
		it := g.open.pop()
		id := it.id
		if g.closed[id] || it.g != g.cost[id] {
			continue
		}
		g.closed[id] = true
		pos.Unpack(g.store.Key(id))
		r.Of(pos)
		if next == nil && pos.Solved() {
			return g.path(id), true
		}
		k := g.store.Key(id)
		if next != nil && string(k[:boxBytes]) == string(targetKey[:boxBytes]) && r.Has(nextBehind) {
			return g.path(id), true
		}
		o.expanded++
		if o.ctx.Err() != nil {
			o.stopped = true
			return nil, false
		}
		if o.expanded%64 == 0 && !o.until.IsZero() && time.Now().After(o.until) {
			o.slow = true
			return nil, false
		}
		if g.bytes()+v.bytes()+em.Bytes()+o.pullBytes > o.memory {
			o.outgrown = true
			return nil, false
		}
		h := boundOf(toGo, pos)
		em.SetBase(pos, id)
		player := pos.Player()
		c := it.g + 1
		boxes = append(boxes[:0], pos.BoxSquares()...)
		for i, s := range boxes {
			if i%16 == 15 && o.ctx.Err() != nil {
				o.stopped = true
				return nil, false
			}
			for d := range sokoban.Dirs {
				behind, front := b.Next(s, d^1), b.Next(s, d)
				if behind == sokoban.None || front == sokoban.None || !r.Has(behind) || pos.HasBox(front) || o.dead[front] || toGo[front] >= sokoban.Unreachable {
					continue
				}
				f := c + h - int64(toGo[s]) + int64(toGo[front])
				if f >= old {
					continue
				}
				m := sokoban.Push{Box: s, Dir: d}
				to := pos.Apply(m)
				hm, ok := em.Child(pos)
				if !ok || int64(hm) >= old-c {
					pos.Undo(m)
					pos.SetPlayer(player)
					continue
				}
				f = c + int64(hm)
				canon, known := r.After(pos, s, to)
				if !known {
					canon = pos.Reach()
				}
				key = pos.PackAt(key[:0], canon)
				child, fresh := g.store.Intern(key, pos.HashAt(canon))
				if fresh {
					em.Keep(child)
					g.add(id, m, c)
					g.closed[child] = !v.admit(pos) || o.checker.Deadlocked(pos, to)
				}
				g.relax(child, fresh, id, m, item{f: order(f, c), g: c, id: child})
				pos.Undo(m)
				pos.SetPlayer(player)
			}
		}
	}
	return nil, false
}
