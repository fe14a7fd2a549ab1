package distance

import (
	"container/heap"
	"context"

	"soko/sokoban"
)

// labeler is a plain A* over pushes on one board's tables, to label
// positions with their optimal pushes: the pull-distance matching bound
// (admissible, so with states reopened the first solved state expanded
// is optimal), pushes onto dead squares left out and the positions the
// detectors find deadlocked dropped. Unlike astar (package search) it
// builds nothing per position, which on Boxoban's small levels costs more
// than the search itself.
type labeler struct {
	bd    *Board
	store *sokoban.Store
	g     []int32
	open  openList
	moves []sokoban.Push
	key   []byte
	pos   *sokoban.Position
}

func newLabeler(bd *Board) *labeler {
	return &labeler{bd: bd, pos: bd.b.Start()}
}

type openEntry struct {
	f, g int32
	id   uint32
}

// openList is a binary heap on f, deeper (larger g) first on ties.
type openList []openEntry

func (o openList) Len() int { return len(o) }
func (o openList) Less(i, j int) bool {
	if o[i].f != o[j].f {
		return o[i].f < o[j].f
	}
	return o[i].g > o[j].g
}
func (o openList) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o *openList) Push(x any)   { *o = append(*o, x.(openEntry)) }
func (o *openList) Pop() any {
	old := *o
	x := old[len(old)-1]
	*o = old[:len(old)-1]
	return x
}

// solve returns the optimal pushes from p to the solution, or -1 when
// there is none; false when nodes expansions did not settle it.
func (lb *labeler) solve(ctx context.Context, p *sokoban.Position, nodes int64) (int, bool) {
	bd := lb.bd
	lb.store = sokoban.NewStore(bd.b.KeySize())
	lb.g, lb.open = lb.g[:0], lb.open[:0]
	q := lb.pos
	q.Set(p)
	h, ok := bd.Bound(q)
	if !ok {
		return -1, true
	}
	id, _ := lb.store.Intern(q.Pack(lb.key[:0]), q.Hash())
	lb.g = append(lb.g, 0)
	heap.Push(&lb.open, openEntry{f: int32(h), g: 0, id: id})
	for expanded := int64(0); lb.open.Len() > 0; {
		e := heap.Pop(&lb.open).(openEntry)
		if e.g != lb.g[e.id] {
			continue // reached by a shorter path since
		}
		q.Unpack(lb.store.Key(e.id))
		if q.Solved() {
			return int(e.g), true
		}
		if expanded++; expanded > nodes || expanded%256 == 0 && ctx.Err() != nil {
			return 0, false
		}
		lb.moves = q.Pushes(lb.moves[:0], bd.dead)
		for _, m := range lb.moves {
			to := q.Apply(m)
			if !bd.check.Deadlocked(q, to) {
				lb.key = q.Pack(lb.key[:0])
				id, fresh := lb.store.Intern(lb.key, q.Hash())
				ng := e.g + 1
				if fresh {
					lb.g = append(lb.g, ng)
				}
				if fresh || ng < lb.g[id] {
					lb.g[id] = ng
					if h, ok := bd.Bound(q); ok {
						heap.Push(&lb.open, openEntry{f: ng + int32(h), g: ng, id: id})
					}
				}
			}
			q.Undo(m)
		}
	}
	return -1, true
}
