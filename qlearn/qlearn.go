// Package qlearn holds the learning solvers of seed 001: tabular
// Q-learning and its hybrid with informed search, Q*.
//
//   - qlearn: Q-learning over single player moves, 001 §2.2.2 and Alg. 7.
//     Episodes run in the environment of package env with 001's rewards
//     (−1 for a move that changes nothing, which is never chosen; 0 into a
//     deadlock; 100 for the goal; 10 when h = h1 + h2 decreases; 1
//     otherwise). An episode ends at the goal, at a deadlock (the deadlock
//     package's dead squares, frozen boxes and wall segments: stronger than,
//     and as sound as, 001's corners and between-corner walls) or after
//     the step limit. Actions are ε-greedy with ε·λ^epoch, the epoch being
//     the episode's number; greedy ties are broken at random. With loop
//     detection (001 §3: "loop detection of those episodes that will never
//     have a solution"; on by default, loops=0 turns it off) an action that
//     returns to a state the episode has already been in ends the episode
//     as a deadlock does, with reward 0: 001's rewards are positive for
//     every move, so without it a greedy agent learns to walk in circles. The Q-table
//     is a hash table keyed by the hashed (state, action) pair (hashtab.Map),
//     updated by Eq. 5: Q ← Q + α(r + γ·max Q(next) − Q), with max Q 0 after
//     the goal or a deadlock. Defaults from 001 §3: p = 2, α = 0.5,
//     γ = 0.6, ε = 0.999, λ = 0.999; the step limit, which 001 does not
//     give, is ours (1000).
//   - qstar: the same learner with a fifth action, "run weighted A* to the
//     next sub-goal" (001 §3): search.SubGoal, the weighted A* of 001
//     §2.2.1 (f = g + W·h, W = 200) from the current state until one more
//     box stands on a goal, within a node budget per call. Its moves are
//     applied as one action (env.StepMoves) and rewarded as one transition.
//     A sub-goal search's outcome is kept per state, so each state is
//     searched at most once; a state where it fails does not offer the
//     action again.
//
// Rapid random restarts (001 §2.2.4, there for A*; off by default): with
// restart=T, after T episodes without reaching the goal the learner forgets
// its Q-table and starts ε's decay again, drawing on from its random stream;
// Q*'s sub-goal cache, which holds searches and not learned values, is kept.
//
// A level solved at its start is solved with no moves, and one where no
// player move changes anything has no solution, before any episode. A
// level is solved when an episode reaches the goal; the solution is that
// episode's moves, replayed by the verifier like every solver's. Learning
// stops at the time, episode (--iterations), action (--nodes) or memory
// limit; the Q-table and the sub-goal cache count against --memory and the
// search stops (status memory limit) rather than grow past it; so do the
// states of the current episode, kept for loop detection. Stats:
// Iterations counts episodes, Expanded actions, Stored Q-table entries, and
// Counts the episodes, actions, random actions and, for qstar, how often
// the A* action was taken, searched and failed.
//
// Runs are deterministic for a seed under node and iteration budgets.
package qlearn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"soko/env"
	"soko/internal/hashtab"
	"soko/level"
	"soko/search"
	"soko/solver"
)

// actionAStar is qstar's fifth action, after the four moves.
const actionAStar env.Action = 4

// actionKeys are XORed into a state's hash to key its actions in the
// Q-table: fixed random constants, one per action.
var actionKeys = [5]uint64{0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9, 0xd6e8feb86659fd93, 0xa0761d6478bd642f}

// initialSlots is the Q-table's size at the start: 64 KiB.
const initialSlots = 1 << 12

// config holds a run's parameters.
type config struct {
	alpha, gamma, eps, lambda, p float64
	steps                        int
	restart                      int // episodes before a rapid random restart; 0: never
	loops                        bool
	qstar                        bool
	w                            float64
	subgoalNodes                 int64
}

// subgoal is a cached sub-goal search: the moves to the sub-goal, or nil
// where the search failed.
type subgoal struct{ moves []level.Move }

// subgoalEntryBytes is the memory of a cache entry beside its moves: the
// key, the slice header and the map's own overhead.
const subgoalEntryBytes = 8 + 24 + 32

// learner is one run of Q-learning or Q* on one level.
type learner struct {
	cfg   config
	ctx   context.Context
	opts  solver.Options
	e     *env.Env
	q     *hashtab.Map[float64] // the Q-table (qOf)
	rng   *rand.Rand
	guard *solver.Guard
	stats solver.Stats

	cache       map[uint64]subgoal
	cacheBytes  int64
	static      int64 // the environment's tables
	legal       []env.Action
	visited     map[uint64]struct{} // the states of the current episode, for loops
	visitedPeak int                 // the most states visited holds or has held

	episodes, actions, random, loops     int64
	restarts                             int64
	astarTaken, astarSearches, astarFail int64
}

// stop ends a run early with a budget's status.
type stop struct{ status solver.Status }

func (s stop) Error() string { return s.status.String() }

func solve(ctx context.Context, l *level.Level, opts solver.Options, cfg config) (solver.Result, error) {
	guard := solver.NewGuard(ctx, opts)
	e, err := env.New(env.Config{Mode: env.Moves, Rewards: env.Paper, MaxSteps: cfg.steps, Deadlocks: true, P: cfg.p, Seed: opts.Seed}, l)
	if err != nil {
		if errors.Is(err, env.ErrUnsolvable) {
			res := solver.Result{Status: solver.NoSolution}
			guard.Finish(&res.Stats)
			return res, nil
		}
		return solver.Result{}, err
	}
	if res, ok := decided(e, guard); ok {
		return res, nil
	}
	if opts.Budget.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Budget.Time)
		defer cancel()
	}
	ln := newLearner(ctx, guard, e, opts, cfg)
	st, solved, err := ln.run()
	if err != nil {
		return solver.Result{}, err
	}
	res := solver.Result{Status: st, Stats: ln.finish()}
	if solved {
		res.Status = solver.Solved
		res.Moves = append([]level.Move(nil), e.History()...)
	}
	return res, nil
}

// decided returns the result of a level whose start settles it before any
// episode: solved already (no moves), or with no player move that changes
// anything (no solution, proved: nothing can ever change). Every episode
// after this check takes at least one action, so the action (node) budget
// grows with the episodes and trips like the others.
func decided(e *env.Env, guard *solver.Guard) (solver.Result, bool) {
	var res solver.Result
	if _, err := e.Reset(); err != nil {
		return res, false // New built this level's tables: the learner meets the error again
	}
	switch {
	case e.Done(): // solved at the start
		res.Status = solver.Solved
	case len(e.Legal(nil)) == 0:
		res.Status = solver.NoSolution
	default:
		return res, false
	}
	guard.Finish(&res.Stats)
	return res, true
}

// newLearner prepares a run in environment e; ctx carries the deadline of
// the time budget.
func newLearner(ctx context.Context, guard *solver.Guard, e *env.Env, opts solver.Options, cfg config) *learner {
	ln := &learner{cfg: cfg, ctx: ctx, opts: opts, e: e, q: hashtab.New[float64](initialSlots), guard: guard,
		rng: rand.New(rand.NewPCG(opts.Seed, 0x51ea2)), cache: map[uint64]subgoal{}, visited: map[uint64]struct{}{}, static: e.Bytes()}
	guard.Best(func() []string { return ln.e.Position().Rows() })
	return ln
}

// run trains episode after episode until one reaches the goal or the
// budget ends. An error is a bug or a level the sub-goal search cannot
// read, not the budget's end.
func (ln *learner) run() (solver.Status, bool, error) {
	epoch := 0 // episodes since the start or the last restart: ε's exponent
	for n := 0; ; n++ {
		ln.stats.Iterations = int64(n)
		if st, halt := ln.tick(); halt {
			return st, false, nil
		}
		if ln.cfg.restart > 0 && epoch == ln.cfg.restart {
			ln.q = hashtab.New[float64](initialSlots)
			epoch = 0
			ln.restarts++
		}
		ln.episodes++
		solved, err := ln.episode(epoch)
		epoch++
		var s stop
		switch {
		case errors.As(err, &s):
			return s.status, false, nil
		case err != nil:
			return 0, false, err
		case solved:
			return solver.Solved, true, nil
		}
	}
}

// episode is 001 Alg. 7's executeEpisode: it reports whether the goal was
// reached, or a stop when the budget ran out.
func (ln *learner) episode(epoch int) (bool, error) {
	e := ln.e
	if _, err := e.Reset(); err != nil {
		return false, err
	}
	explore := ln.cfg.eps * math.Pow(ln.cfg.lambda, float64(epoch))
	clear(ln.visited)
	for !e.Done() {
		state := e.Key()
		ln.visited[state] = struct{}{}
		acts := e.Legal(ln.legal[:0])
		if ln.cfg.qstar && ln.offersAStar(state) {
			acts = append(acts, actionAStar)
		}
		ln.legal = acts
		if len(acts) == 0 {
			return false, nil // no move changes anything: the episode is stuck
		}
		var a env.Action
		random := ln.rng.Float64() < explore // 001 writes ≤; < keeps ε = 0 strictly greedy
		if random {
			a = acts[ln.rng.IntN(len(acts))]
		} else {
			a = ln.greedy(state, acts)
		}
		var (
			r    float64
			done bool
			info env.Info
		)
		if a == actionAStar {
			moves, err := ln.subgoal(state)
			if err != nil {
				return false, err
			}
			if moves == nil {
				continue // the search failed; the state no longer offers it
			}
			_, r, done, info, err = e.StepMoves(moves)
			if err != nil {
				return false, err // the sub-goal's moves are replayed from this state: a bug
			}
			ln.astarTaken++
		} else {
			_, r, done, info = e.Step(a)
		}
		ln.actions++
		if random {
			ln.random++
		}
		_, loop := ln.visited[e.Key()]
		loop = loop && ln.cfg.loops && !done
		if loop {
			r = env.RewardDeadlock
			ln.loops++
		}
		next := 0.0
		if !(done && (info.Solved || info.Deadlock)) && !loop {
			next = ln.maxQ(e.Key())
		}
		if err := ln.update(state, a, r, next); err != nil {
			return false, err
		}
		if info.Solved {
			return true, nil
		}
		if loop {
			return false, nil
		}
		if st, halt := ln.tick(); halt {
			return false, stop{st}
		}
	}
	return false, nil
}

// greedy returns the action with the largest Q among acts, ties broken at
// random (a fresh state's actions all have Q = 0).
func (ln *learner) greedy(state uint64, acts []env.Action) env.Action {
	best, ties := acts[0], 0
	bestQ := math.Inf(-1)
	for _, a := range acts {
		q := ln.qOf(state ^ actionKeys[a])
		switch {
		case q > bestQ:
			best, bestQ, ties = a, q, 1
		case q == bestQ:
			ties++
			if ln.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	return best
}

// maxQ is max over a of Q(state, a): over the four moves and, for qstar,
// the A* action. Pairs never updated count 0.
func (ln *learner) maxQ(state uint64) float64 {
	n := 4
	if ln.cfg.qstar {
		n = 5
	}
	m := math.Inf(-1)
	for a := range n {
		m = max(m, ln.qOf(state^actionKeys[a]))
	}
	return m
}

// update is 001 Eq. 5. A new entry that would double the table past the
// memory budget stops the run instead.
func (ln *learner) update(state uint64, a env.Action, r, next float64) error {
	k := state ^ actionKeys[a]
	if !ln.q.Has(k) && ln.q.Full() {
		if m := ln.opts.Budget.Memory; m > 0 && ln.bytes()+ln.q.Bytes() > m {
			return stop{solver.MemoryLimit}
		}
	}
	old := ln.qOf(k)
	ln.q.Set(k, old+ln.cfg.alpha*(r+ln.cfg.gamma*next-old))
	return nil
}

// qOf returns Q for key k (a state's hash mixed with an action,
// actionKeys), 0 for a pair never updated (001 starts from an empty
// table).
func (ln *learner) qOf(k uint64) float64 {
	q, _ := ln.q.Get(k)
	return q
}

// offersAStar reports whether qstar's A* action is open in state: not when
// a search from it failed before.
func (ln *learner) offersAStar(state uint64) bool {
	c, seen := ln.cache[state]
	return !seen || c.moves != nil
}

// subgoal returns the moves of the sub-goal search from the current state,
// searching on the first visit; nil when the search fails within its node
// budget (or finds no sub-goal). The run's time and memory stop it as they
// stop the learner.
func (ln *learner) subgoal(state uint64) ([]level.Move, error) {
	if c, ok := ln.cache[state]; ok {
		return c.moves, nil
	}
	rows := ln.e.Position().Rows()
	ls, err := level.ParseString(strings.Join(rows, "\n"), ln.e.Level().Source)
	if err != nil {
		return nil, err
	}
	opts := solver.Options{
		Budget: solver.Budget{Nodes: ln.cfg.subgoalNodes},
		Params: map[string]string{"w": formatReal(ln.cfg.w), "p": formatReal(ln.cfg.p)},
	}
	if m := ln.opts.Budget.Memory; m > 0 {
		opts.Budget.Memory = max(m-ln.bytes(), 1)
	}
	ln.astarSearches++
	res, err := search.SubGoal(ln.ctx, ls[0], opts)
	if err != nil {
		return nil, err
	}
	switch res.Status {
	case solver.TimeLimit, solver.Cancelled:
		if st, halt := ln.guard.Check(&ln.stats); halt {
			return nil, stop{st}
		}
		return nil, stop{res.Status}
	case solver.Solved:
	default:
		ln.astarFail++
		res.Moves = nil
	}
	ln.cache[state] = subgoal{res.Moves}
	ln.cacheBytes += subgoalEntryBytes + 2*int64(len(res.Moves))
	if m := ln.opts.Budget.Memory; m > 0 && ln.bytes() > m {
		return nil, stop{solver.MemoryLimit}
	}
	return res.Moves, nil
}

func formatReal(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// visitedEntryBytes is the memory of one state in the episode's visited
// set, a Go map from uint64 to an empty struct: the key and its share of
// the buckets' overhead.
const visitedEntryBytes = 16

// bytes is the memory the run holds: the environment's tables, the Q-table,
// the sub-goal cache and the current episode's visited states.
func (ln *learner) bytes() int64 {
	ln.visitedPeak = max(ln.visitedPeak, len(ln.visited)) // a cleared Go map keeps its buckets
	return ln.static + ln.q.Bytes() + ln.cacheBytes + visitedEntryBytes*int64(ln.visitedPeak)
}

// tick updates the counters and checks the budget.
func (ln *learner) tick() (solver.Status, bool) {
	ln.stats.Expanded, ln.stats.Generated = ln.actions, ln.actions
	ln.stats.Stored = int64(ln.q.Len())
	ln.stats.Bytes = ln.bytes()
	return ln.guard.Tick(&ln.stats)
}

// finish returns the final statistics.
func (ln *learner) finish() solver.Stats {
	ln.tick()
	ln.stats.Iterations = ln.episodes
	ln.stats.Counts = map[string]int64{
		"episodes":       ln.episodes,
		"actions":        ln.actions,
		"random_actions": ln.random,
		"loops":          ln.loops,
		"restarts":       ln.restarts,
		"qtable_entries": int64(ln.q.Len()),
	}
	if ln.cfg.qstar {
		ln.stats.Counts["astar_actions"] = ln.astarTaken
		ln.stats.Counts["astar_searches"] = ln.astarSearches
		ln.stats.Counts["astar_failures"] = ln.astarFail
	}
	ln.guard.Finish(&ln.stats)
	return ln.stats
}
