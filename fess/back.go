package fess

import (
	"fmt"

	"soko/solver"
)

// backSearch is the back strategy's search (docs/fess.md, "The back
// strategy"): the backward search over pull macro-moves alone, greedy
// towards the start (backward.greedy), until it reaches the start
// position or, in the rounds, a position in another strategy's tree
// (knowledge.trees). It runs on an engine for the level's tables, the
// forward store that holds the start alone, and the splice of a meeting.
type backSearch struct{}

func (backSearch) member(s *strategy, own map[string]string, inRounds bool) solver.Member {
	return engineMember(s, own, inRounds, func(e *engine) loop { return backLoop{e} })
}

func (backSearch) String() string { return "greedy backward (pulls)" }

// backLoop is the back strategy's loop on engine e, whose backward search
// (e.back) it runs.
type backLoop struct{ e *engine }

// begin plants the forward root (the start, which the backward search
// meets when it reaches it) and sets up the backward search.
func (b backLoop) begin() (solver.Result, bool, error) {
	e := b.e
	_, res, done, err := e.plant()
	if done {
		return res, done, err
	}
	bk, err := e.startBackward(true)
	if err != nil {
		return e.stopped(err)
	}
	e.back = bk
	b.watch()
	return solver.Result{}, false, nil
}

// step expands the backward search's next position. Its end proves there
// is no solution: the whole graph of pulls from the solved position is
// searched and the start is not in it.
func (b backLoop) step() (solver.Result, bool, error) {
	e := b.e
	if st, stop := e.tick(); stop {
		return e.stop(st), true, nil
	}
	met, more := e.back.step(e.halt(0))
	if met || more {
		e.stats.Expanded++
	}
	switch {
	case met:
		res, err := e.met()
		return res, true, err
	case more:
		return solver.Result{}, false, nil
	}
	if st, stop := e.guard.Check(&e.stats); stop {
		return e.stop(st), true, nil // within a step: it may be cut short
	}
	return e.stop(solver.NoSolution), true, nil
}

// watch hands the guard the drawing and description of the backward
// search's position nearest the start for progress events.
func (b backLoop) watch() {
	bk := b.e.back
	b.e.guard.Best(func() []string {
		q := b.e.b.Start()
		q.Unpack(bk.store.Key(bk.nearest))
		return q.Rows()
	})
	b.e.guard.Describe(func() string {
		return fmt.Sprintf("pulled back from the solved position: %d positions, the nearest %d pushes from the start squares", bk.store.Len(), bk.nearestSum)
	})
}

// mark is the forward root's cell, which never changes: the back
// strategy's progress is not in cells.
func (b backLoop) mark() int32 { return b.e.queue.best }

// progress counts only the first slice as an improvement and never a
// stall, so that the rounds leave the back strategy's weight at its share.
func (b backLoop) progress(before int32) (improved, stalled bool) { return before < 0, false }

// offer adds the backward search's store to k.
func (b backLoop) offer(k *knowledge) {
	if k.back == nil {
		k.back = b.e.back
	}
}
