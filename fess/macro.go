package fess

import (
	"slices"

	"soko/deadlock"
	"soko/sokoban"
)

// Macro is a box macro-move (the FESS paper's moves for Sokoban): the box
// on From is pushed, the other boxes staying where they are, to To in
// Pushes pushes, and the player ends on the Side neighbour of To (the
// square the last push was made from). Moves to the same square that leave the player in different
// regions are different moves: they lead to different positions.
type Macro struct {
	From, To sokoban.Square
	Side     sokoban.Dir
	Pushes   int32

	// What the split of the board gives for free (see macroGen.split):
	// the smallest square of the player's region after the move (the
	// canonical player square), and how many more areas of free squares
	// the board has after the move than before.
	canon   sokoban.Square
	regions int16
}

// macroGen generates box macro-moves. For one box it builds the graph of
// (box square, player side) states: a push edge moves the box one square
// away from the player, and the sides of a square are joined when the
// player can walk between them with the box there. Those joins come from
// one depth-first search per box (articulation points, Hopcroft–Tarjan,
// as sokoban's side links do on the empty board) over the free squares
// with the other boxes in place, not from a flood fill per push. It keeps
// scratch space; use one per goroutine.
//
// In pull mode (the backward plan) the edges pull the box towards the
// player instead, who steps back one square.
type macroGen struct {
	b    *sokoban.Board
	dead []bool // squares a pushed box may not stop on or pass (nil: none)
	// macros, when set, gives the tunnels: stops that only pass through
	// a tunnel are left out (passing).
	macros *deadlock.Macros
	occ    []bool // squares holding a box that stays put

	// placeAll's forest (forest.go): the depth-first search of the free
	// squares done once per position, from which link answers for any box
	// (from, whose square the player may then cross). split's search for
	// one box overwrites it.
	placed      bool // placeAll was called and lift not yet: link answers from the forest
	forestReady bool // the arrays below hold the forest of the placed boxes
	from        sokoban.Square
	fromNext    [4]sokoban.Square // from's neighbours in the forest, None where not
	treeMin     []sokoban.Square  // tree -> its smallest square (Cuts.Tree: square -> its tree)

	// depth-first search, per box: Met holds the squares the search met
	sokoban.Cuts
	linked sokoban.Marks // squares whose links are computed (link)
	links  []int8        // square*4+side: the least side joined with it, -1 wall
	// The smallest square of each part: SubMin[s] of the search's subtree
	// under s, prefMin[i] of the squares numbered 1..i, sufMin[i] of those
	// numbered past i, partMin[s*4+d] of the part of the area without s
	// holding the d neighbour of s (for d with links[s*4+d] == d).
	prefMin []sokoban.Square
	sufMin  []sokoban.Square
	partMin []sokoban.Square
	parts   []int8 // square -> parts the area falls into without it

	// breadth-first search over states square*4+side
	seen  []uint32 // == round: reached
	round uint32
	dist  []int32
	prev  []int32 // the state the push into this one was made from, -1 start
	queue []int32
}

func newMacroGen(b *sokoban.Board, dead []bool) *macroGen {
	n := b.N
	return &macroGen{
		b: b, dead: dead, occ: make([]bool, n),
		Cuts: sokoban.NewCuts(n), linked: sokoban.NewMarks(n), links: make([]int8, 4*n),
		prefMin: make([]sokoban.Square, n+1), sufMin: make([]sokoban.Square, n+1),
		partMin: make([]sokoban.Square, 4*n), parts: make([]int8, n),
		seen: make([]uint32, 4*n), dist: make([]int32, 4*n), prev: make([]int32, 4*n), queue: make([]int32, 0, 4*n),
	}
}

// bytes returns the memory of the scratch space.
func (g *macroGen) bytes() int64 {
	return int64(g.b.N) * (1 + 4*5 + 4 + 4 + 4*(4+4+4+4) + 4*3 + 16 + 1 + 4 + 4)
}

// place marks the boxes of p (all but none) as standing still.
func (g *macroGen) place(boxes []sokoban.Square) {
	for _, s := range boxes {
		g.occ[s] = true
	}
}

// placeAll is place for a position whose every box's moves are generated
// next, with no other change to the boxes before lift: the moves come from
// one forest (forest.go) instead of a search per box.
func (g *macroGen) placeAll(boxes []sokoban.Square) {
	g.place(boxes)
	g.placed, g.forestReady = true, false
}

// lift clears the marks of place.
func (g *macroGen) lift(boxes []sokoban.Square) {
	for _, s := range boxes {
		g.occ[s] = false
	}
	g.placed, g.forestReady = false, false
}

func (g *macroGen) free(s sokoban.Square) bool { return s != sokoban.None && !g.occ[s] }

// split runs the depth-first search of the free area around root, with
// root itself free, from which link computes, for a square s of the area
// and a side d whose neighbour is free, links[s*4+d]: the least side e such
// that, with a box on s (and the other boxes in place), the player can walk
// between the d and e neighbours; -1 where the neighbour is not free.
func (g *macroGen) split(root sokoban.Square) {
	g.forestReady = false
	g.Visit.Clear()
	g.linked.Clear()
	b := g.b
	wasOcc := g.occ[root]
	g.occ[root] = false
	g.Met = g.Met[:0]
	g.Number(g.b, g.occ, root, 0, 0)
	m := len(g.Met)
	g.prefMin[0], g.sufMin[m] = sokoban.Square(b.N), sokoban.Square(b.N)
	for i, s := range g.Met {
		g.prefMin[i+1] = min(g.prefMin[i], s)
	}
	for i := m - 1; i >= 0; i-- {
		g.sufMin[i] = min(g.sufMin[i+1], g.Met[i])
	}
	g.occ[root] = wasOcc
}

// link computes links, parts and partMin for square s of the area split
// last searched, once per split: the search needs them only for the
// squares the box reaches, most often a small part of the area. Each free
// neighbour of s lies in the part Cuts.Part names: the subtree of a child
// of s that s cuts off (named by the child's number), or the part above,
// holding the root.
func (g *macroGen) link(s sokoban.Square) {
	if g.linked.Has(int32(s)) {
		return
	}
	g.linked.Add(int32(s))
	if g.placed {
		g.linkForest(s)
		return
	}
	const wall, above = -2, -1
	var part [4]int32
	for d := range sokoban.Dirs {
		c := g.b.Next(s, d)
		if !g.free(c) {
			part[d] = wall
			continue
		}
		part[d] = above
		if ch := g.Part(g.b, s, c); ch != sokoban.None {
			part[d] = g.Num[ch]
		}
	}
	for d, rep := range g.join(s, part, wall) {
		if rep {
			g.partMin[int(s)*4+d] = g.partMinOf(s, part[d])
		}
	}
}

// join sets links and parts for square s from the part of each side's
// neighbour (wall: none), and reports the sides that stand for their
// part: the least side of each.
func (g *macroGen) join(s sokoban.Square, part [4]int32, wall int32) (rep [4]bool) {
	g.parts[s] = 0
	for d := 0; d < 4; d++ {
		g.links[int(s)*4+d] = -1
		if part[d] == wall {
			continue
		}
		for e := 0; e < 4; e++ {
			if part[e] == part[d] {
				g.links[int(s)*4+d] = int8(e)
				break
			}
		}
		if g.links[int(s)*4+d] == int8(d) {
			g.parts[s]++
			rep[d] = true
		}
	}
	return rep
}

// partMinOf returns the smallest square of the part (a child's number, or
// above) of the area without s. A child's part is its subtree; the part
// above is everything numbered before s or after its subtree, with the
// subtrees of the children that hang on to it.
func (g *macroGen) partMinOf(s sokoban.Square, part int32) sokoban.Square {
	if part >= 0 {
		return g.SubMin[g.Met[part-1]]
	}
	m := min(g.prefMin[g.Num[s]-1], g.sufMin[g.Last[s]])
	for d := range sokoban.Dirs {
		ch := g.b.Next(s, d)
		if g.free(ch) && g.Parent[ch] == s && g.Low[ch] < g.Num[s] {
			m = min(m, g.SubMin[ch])
		}
	}
	return m
}

// search runs the breadth-first search over (box square, player side)
// states for the box on from, whose sides the player reaches where reach
// says so. After split(from). With pull set, a step pulls the box one
// square towards the player, who steps back one more square; otherwise it
// pushes the box one square away from the player. States reached are left
// in g.queue, with dist and prev.
func (g *macroGen) search(from sokoban.Square, reach func(sokoban.Square) bool, pull bool) {
	g.round++
	if g.round == 0 {
		clear(g.seen)
		g.round = 1
	}
	r, b := g.round, g.b
	wasOcc := g.occ[from]
	g.occ[from] = false
	g.link(from)
	q := g.queue[:0]
	for d := range sokoban.Dirs {
		if n := b.Next(from, d); g.free(n) && reach(n) {
			st := int32(from)*4 + int32(d)
			g.seen[st], g.dist[st], g.prev[st] = r, 0, -1
			q = append(q, st)
		}
	}
	for h := 0; h < len(q); h++ {
		st := q[h]
		s, d := sokoban.Square(st/4), sokoban.Dir(st%4)
		// t: the box's new square; the player ends on its d side either
		// way (pushing, on s; pulling, one square further on).
		var t sokoban.Square
		if pull {
			t = b.Next(s, d)
			if !g.free(b.Next(t, d)) {
				continue
			}
		} else if t = b.Next(s, d^1); !g.free(t) {
			continue
		}
		if g.dead != nil && g.dead[t] {
			continue
		}
		ns := int32(t)*4 + int32(d)
		if g.seen[ns] == r {
			continue
		}
		g.link(t)
		label := g.links[ns]
		for e := int32(0); e < 4; e++ {
			xs := int32(t)*4 + e
			if g.links[xs] == label && g.seen[xs] != r {
				g.seen[xs], g.dist[xs], g.prev[xs] = r, g.dist[st]+1, st
				q = append(q, xs)
			}
		}
	}
	g.queue = q
	g.occ[from] = wasOcc
}

// generate appends to dst the macro-moves of the box on from in position
// p, whose boxes the caller has placed (place). A destination is one
// (square, player region) the box reaches, its own start region excluded.
func (g *macroGen) generate(p *sokoban.Position, from sokoban.Square, dst []Macro) []Macro {
	if !g.movable(p, from) {
		return dst
	}
	return g.destinations(p, from, dst, false)
}

// destinations appends to dst the moves of the box on from, pushed or
// pulled, to each (square, player region) the search reaches but its start.
// Pushed, it leaves out the stops that only pass through a tunnel.
func (g *macroGen) destinations(p *sokoban.Position, from sokoban.Square, dst []Macro, pull bool) []Macro {
	if g.placed {
		g.startForest(from)
	} else {
		g.split(from)
	}
	g.search(from, p.Reachable, pull)
	for _, st := range g.queue {
		s, d := sokoban.Square(st/4), sokoban.Dir(st%4)
		if g.links[st] != int8(d) || g.dist[st] == 0 {
			continue // not the representative of its region, or the start
		}
		if !pull && g.macros != nil && g.passing(s, sokoban.Dir(g.prev[st]%4)^1) {
			continue
		}
		dst = append(dst, Macro{From: from, To: s, Side: d, Pushes: g.dist[st],
			canon: g.partMin[st], regions: int16(g.parts[s]) - int16(g.parts[from])})
	}
	return dst
}

// passing reports whether a box pushed in direction d onto s only passes
// through: s and the square ahead are tunnel squares along d that split
// the board, off goals, and the square ahead is free and not dead. Such a
// stop is dominated by the move that goes on: with the box on s the player
// can never reach the squares in front of it, so in any solution the
// pushes that carry it on can be made at once without changing any other
// push (the tunnel macro of 001 §2.1.2; search's pushMacro gives the
// argument). The move going on is generated too.
func (g *macroGen) passing(s sokoban.Square, d sokoban.Dir) bool {
	if !g.tunnelStep(s, d) {
		return false
	}
	ahead := g.b.Next(s, d)
	return g.free(ahead) && (g.dead == nil || !g.dead[ahead]) && g.tunnelStep(ahead, d)
}

func (g *macroGen) tunnelStep(s sokoban.Square, d sokoban.Dir) bool {
	return s != sokoban.None && g.macros.CarriesOn(s, d)
}

// movable reports whether the box on from can be pushed at all now.
func (g *macroGen) movable(p *sokoban.Position, from sokoban.Square) bool {
	b := g.b
	for d := range sokoban.Dirs {
		behind, front := b.Next(from, d^1), b.Next(from, d)
		if g.free(front) && g.free(behind) && p.Reachable(behind) && (g.dead == nil || !g.dead[front]) {
			return true
		}
	}
	return false
}

// path returns the pushes of macro-move m in position p (boxes placed).
func (g *macroGen) path(p *sokoban.Position, m Macro) []sokoban.Push {
	var pushes []sokoban.Push
	if !g.walkBack(p, m, false, func(ps int32) {
		pushes = append(pushes, sokoban.Push{Box: sokoban.Square(ps / 4), Dir: sokoban.Dir(ps%4) ^ 1})
	}) {
		return nil
	}
	slices.Reverse(pushes)
	return pushes
}

// walkBack searches the moves of m.From in p (boxes placed), pushing or
// pulling, and calls step with each state a step of m was made from, last
// first. It reports false when m's destination is not reached.
func (g *macroGen) walkBack(p *sokoban.Position, m Macro, pull bool, step func(from int32)) bool {
	g.split(m.From)
	g.search(m.From, p.Reachable, pull)
	st := int32(m.To)*4 + int32(m.Side)
	if g.seen[st] != g.round {
		return false
	}
	for ; g.prev[st] >= 0; st = g.prev[st] {
		step(g.prev[st])
	}
	return true
}

// generatePull appends to dst the pull macro-moves of the box on from in
// position p, whose boxes the caller has placed (for the backward
// search): the box pulled, the other boxes staying where they are, to
// any (square, player region) it reaches, its own start region excluded.
// Side is the side of To the player ends on, as for pushes.
func (g *macroGen) generatePull(p *sokoban.Position, from sokoban.Square, dst []Macro) []Macro {
	if !g.pullable(p, from) {
		return dst
	}
	return g.destinations(p, from, dst, true)
}

// pullable reports whether the box on from can be pulled at all now.
func (g *macroGen) pullable(p *sokoban.Position, from sokoban.Square) bool {
	for d := range sokoban.Dirs {
		to := g.b.Next(from, d)
		if g.free(to) && p.Reachable(to) && g.free(g.b.Next(to, d)) && (g.dead == nil || !g.dead[to]) {
			return true
		}
	}
	return false
}

// unpull returns the pushes that undo pull macro-move m made in position p
// (boxes placed): in order, the pushes that take the box from m.To back to
// m.From, the player starting on m.Side of m.To.
func (g *macroGen) unpull(p *sokoban.Position, m Macro) []sokoban.Push {
	var pushes []sokoban.Push
	if !g.walkBack(p, m, true, func(ps int32) {
		d := sokoban.Dir(ps % 4)
		pushes = append(pushes, sokoban.Push{Box: g.b.Next(sokoban.Square(ps/4), d), Dir: d ^ 1})
	}) {
		return nil
	}
	return pushes
}
