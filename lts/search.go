package lts

import (
	"container/heap"
	"context"
	"math"
	"slices"

	"soko/deadlock"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// Found is what a search says of the solution it found beside solver.Result.
type Found struct {
	// Bound is d(n*)/π(n*) of the solution node: the theorem's bound on
	// the expansions of a search with this policy, which Stats.Expanded
	// never exceeds. 0 for a level solved at the start; +Inf when π(n*)
	// underflows.
	Bound float64
	// LogProb is log π(n*), the log-probability of the solution's moves.
	LogProb float64
}

// node is one node of the search tree.
type node struct {
	parent int32   // index in nodes; -1 for the root
	state  uint32  // id in the store
	depth  int32   // moves from the start
	last   int8    // the move that reached it (see Board.Contexts)
	logp   float64 // log π(n)
}

// The memory of a node, of an entry of the open list and, per stored
// state, of its best cost and closed mark.
const (
	nodeBytes  = 24
	entryBytes = 16
	stateBytes = 9
)

// entry is an open node with its Levin cost, log d − log π.
type entry struct {
	cost float64
	node int32
}

// open is the open list: a binary heap by cost, ties broken by the older
// node first, so that the order depends on nothing but the costs.
type open []entry

func (o open) Len() int { return len(o) }
func (o open) Less(i, j int) bool {
	return o[i].cost < o[j].cost || o[i].cost == o[j].cost && o[i].node < o[j].node
}
func (o open) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o *open) Push(x any)   { *o = append(*o, x.(entry)) }
func (o *open) Pop() any {
	old := *o
	e := old[len(old)-1]
	*o = old[:len(old)-1]
	return e
}

// searchPrune is the detectors whose proven deadlocks the solver's search
// leaves out: all of package deadlock's.
var searchPrune = deadlock.All()

// Search runs LTS on l with the policy of m (nil: uniform) within the
// budget of opts, honouring ctx, leaving out the pushes searchPrune proves
// dead. A solution is the moves to the first solved position generated.
// NoSolution means every state reachable without such a push was
// expanded: a proof.
func Search(ctx context.Context, l *level.Level, m *Model, opts solver.Options) (solver.Result, Found, error) {
	return search(ctx, l, m, opts, searchPrune)
}

// search is Search leaving out the pushes prune proves dead.
func search(ctx context.Context, l *level.Level, m *Model, opts solver.Options, prune deadlock.Detectors) (solver.Result, Found, error) {
	guard := solver.NewGuard(ctx, opts)
	var st solver.Stats
	done := func(status solver.Status) (solver.Result, Found, error) {
		guard.Finish(&st)
		return solver.Result{Status: status, Stats: st}, Found{}, nil
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return solver.Result{}, Found{}, err
	}
	if b.Impossible != "" {
		return done(solver.NoSolution)
	}
	// The table of dead sets takes at most half of what the memory budget
	// leaves, so that the search keeps room, and a twentieth of its time.
	setUp, cancel := guard.SetUp()
	bd, err := newBoard(setUp, b, prune, deadlock.LimitsWithin(opts.Budget.TablesLeft(b.Bytes())/2, opts.Budget.Time))
	cancel()
	if err != nil {
		if status, ok := solver.Stopped(err); ok {
			return done(status)
		}
		return solver.Result{}, Found{}, err
	}
	bits := uint(DefaultBits)
	if m != nil {
		bits = m.Bits
	}
	pos := b.Start()
	store := sokoban.NewStore(b.KeySize())
	var (
		nodes  []node
		best   []float64 // per state: the least cost it was queued with
		closed []bool    // per state: expanded
		queue  open
		key    []byte
		rows   []uint32
	)
	key = pos.PackExact(key[:0])
	store.Intern(key, pos.HashExact())
	st.Stored = 1
	// The live view's board: the expanded state with the most boxes on
	// goals, as the other searches draw theirs.
	shown := sokoban.NewMostOnGoal(b)
	guard.Best(shown.Rows)
	guard.Describe(shown.Caption)
	nodes = append(nodes, node{parent: -1, last: noMove})
	best = append(best, math.Inf(-1))
	closed = append(closed, false)
	if pos.Solved() {
		return finish(guard, &st, nodes, 0)
	}
	heap.Push(&queue, entry{math.Inf(-1), 0})
	held := bd.Bytes() + b.Bytes() + pos.Bytes()
	if m != nil {
		held += 4 * int64(len(m.W))
	}
	for queue.Len() > 0 {
		st.Bytes = held + store.Bytes() + int64(cap(nodes))*nodeBytes + int64(cap(queue))*entryBytes + int64(cap(best))*stateBytes
		if status, stop := guard.Tick(&st); stop {
			return done(status)
		}
		e := heap.Pop(&queue).(entry)
		n := nodes[e.node]
		if closed[n.state] {
			continue
		}
		closed[n.state] = true
		st.Expanded++
		pos.Unpack(store.Key(n.state))
		shown.Offer(pos)
		legal := bd.Legal(pos)
		if legal == 0 {
			continue
		}
		var pr [Actions]float64
		if m != nil {
			rows = bd.Contexts(pos, int(n.last), bits, rows[:0])
		}
		m.Policy(rows, legal, &pr)
		from := pos.Player()
		for d := range sokoban.Dirs {
			if legal&(1<<d) == 0 {
				continue
			}
			last := bd.play(pos, d)
			st.Generated++
			child := node{parent: e.node, depth: n.depth + 1, last: int8(last), logp: n.logp + math.Log(pr[d])}
			cost := math.Log(float64(child.depth)) - child.logp
			key = pos.PackExact(key[:0])
			id, fresh := store.Intern(key, pos.HashExact())
			child.state = id
			if fresh {
				st.Stored++
				best = append(best, cost)
				closed = append(closed, false)
			}
			if fresh || !closed[id] && cost < best[id] {
				best[id] = cost
				nodes = append(nodes, child)
				if pos.Solved() {
					return finish(guard, &st, nodes, int32(len(nodes)-1))
				}
				heap.Push(&queue, entry{cost, int32(len(nodes) - 1)})
			}
			if last >= Actions {
				pos.Undo(sokoban.Push{Box: b.Next(from, d), Dir: d})
			}
			pos.SetPlayer(from)
		}
	}
	return done(solver.NoSolution)
}

// finish returns the moves to node i, the solution, with its bound.
func finish(guard *solver.Guard, st *solver.Stats, nodes []node, i int32) (solver.Result, Found, error) {
	n := nodes[i]
	var f Found
	if n.depth > 0 {
		f = Found{Bound: float64(n.depth) * math.Exp(-n.logp), LogProb: n.logp}
	}
	var moves []level.Move
	pushes := 0
	for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
		last := int(nodes[j].last)
		push := last >= Actions
		if push {
			pushes++
		}
		moves = append(moves, level.Move{Dir: level.Dir(last % Actions), Push: push})
	}
	slices.Reverse(moves)
	guard.Finish(st)
	return solver.Result{Status: solver.Solved, Moves: moves, Pushes: pushes, Stats: *st}, f, nil
}
