// Package stategraph builds the complete graph of the positions a small
// level reaches from its start over pushes, with each position's distance
// in pushes to a solved one: the exact reference that the exhaustive
// soundness and admissibility tests of the deadlock detectors, the bounds
// and the searches check against.
package stategraph

import "soko/sokoban"

// Graph is the complete push graph of a level.
type Graph struct {
	Keys   [][]byte         // positions, packed (Position.Pack); Keys[0] is the start
	Edges  [][]int32        // each position's successors, in the order of Position.Pushes
	Pushes [][]sokoban.Push // the push that leads to each successor
	Dist   []int32          // pushes to a solved position, -1 when none is reachable
}

// Build returns the graph of b over the pushes that do not put a box on a
// square of avoid (nil: any push), or nil when it has more than limit
// positions. With avoid the dead squares, solvability inside the graph is
// exact: such pushes never lead to a solution.
func Build(b *sokoban.Board, avoid []bool, limit int) *Graph {
	g := &Graph{}
	store := sokoban.NewStore(b.KeySize())
	p := b.Start()
	store.Intern(p.Pack(nil), p.Hash())
	var ms []sokoban.Push
	for id := uint32(0); int(id) < store.Len(); id++ {
		if store.Len() > limit {
			return nil
		}
		p.Unpack(store.Key(id))
		ms = p.Pushes(ms[:0], avoid)
		var out []int32
		for _, m := range ms {
			p.Apply(m)
			c, _ := store.Intern(p.Pack(nil), p.Hash())
			p.Undo(m)
			out = append(out, int32(c))
		}
		g.Edges = append(g.Edges, out)
		g.Pushes = append(g.Pushes, append([]sokoban.Push(nil), ms...))
	}
	n := store.Len()
	back := make([][]int32, n)
	for s, out := range g.Edges {
		for _, c := range out {
			back[c] = append(back[c], int32(s))
		}
	}
	g.Dist = make([]int32, n)
	var queue []int32
	for id := range n {
		g.Keys = append(g.Keys, store.Key(uint32(id)))
		g.Dist[id] = -1
		if p.Unpack(g.Keys[id]); p.Solved() {
			g.Dist[id] = 0
			queue = append(queue, int32(id))
		}
	}
	for h := 0; h < len(queue); h++ {
		for _, q := range back[queue[h]] {
			if g.Dist[q] < 0 {
				g.Dist[q] = g.Dist[queue[h]] + 1
				queue = append(queue, q)
			}
		}
	}
	return g
}
