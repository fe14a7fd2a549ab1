package fess

import (
	"context"

	"soko/deadlock"
	"soko/heuristic"
	"soko/sokoban"
)

// tier is the deadlock tier (the FESS paper's two tiers, as Festival runs
// them): the cheap detectors (checker) on every move generated, the
// expensive ones (alive) only on the node that comes up for expansion, and
// the patterns learned from subtrees that grew without solving the level.
type tier struct {
	checker  *deadlock.Checker // frozen boxes, wall segments and the table, on each move
	corrals  *deadlock.Corrals
	frozen   *deadlock.FrozenGoals
	patterns *deadlock.Patterns
	matching *heuristic.PushMatching
	spare    *sokoban.Position // scratch, for learning
	fired    [numDetectors]uint64
}

// Detectors counted by the tier, besides the checker's.
const (
	detMatching = iota
	detCorral
	detFrozen
	detPattern
	detSubtree
	numDetectors
)

// newTier builds the detectors of b, whose dead squares are dead, with
// the level's deadlock table from lt (built under ctx and limits if no
// engine built it yet).
func newTier(ctx context.Context, b *sokoban.Board, dead []bool, matching *heuristic.PushMatching, lt *levelTables, limits deadlock.TableLimits) (tier, error) {
	t := tier{matching: matching}
	table, err := lt.tableOf(ctx, b, limits)
	if err != nil {
		return t, err
	}
	t.checker = deadlock.NewChecker(b, dead, deadlock.Detectors{Freeze: true, WallSegment: true})
	t.checker.On.Table = true
	t.checker.SetTable(table)
	t.corrals = deadlock.NewCorrals(b, dead)
	t.frozen = deadlock.NewFrozenGoals(b, dead)
	t.patterns = deadlock.NewPatterns(b, t.corrals)
	t.spare = b.Start()
	return t, nil
}

// bytes returns the memory of the tables that grow as the search goes: the
// frozen-goal cache and the patterns (the others are charged as static).
func (t *tier) bytes() int64 {
	var n int64
	if t.frozen != nil {
		n += t.frozen.Bytes()
	}
	if t.patterns != nil {
		n += t.patterns.Bytes()
	}
	return n
}

// alive runs the expensive tier on node id of tr, about to be expanded,
// in p: the patterns learned, the corral search around the box the move
// left, boxes cut off by boxes frozen on goals, and the matching of boxes
// to goals.
func (t *tier) alive(tr *tree, p *sokoban.Position, id uint32) bool {
	nd := tr.at(id)
	if nd.parent == noParent {
		return true
	}
	if t.patterns.Len() > 0 {
		if t.patterns.Match(p) {
			t.fired[detPattern]++
			return false
		}
		if deadAbove(tr, id) {
			t.fired[detSubtree]++
			return false
		}
	}
	if t.corrals.DeadAfterPush(p, nd.move.To) {
		t.fired[detCorral]++
		return false
	}
	if t.frozen.Dead(p) {
		t.fired[detFrozen]++
		return false
	}
	if !t.feasible(p) {
		t.fired[detMatching]++
		return false
	}
	return true
}

// feasible reports whether every box of p can be matched to its own goal.
func (t *tier) feasible(p *sokoban.Position) bool {
	_, ok := t.matching.Bound(p)
	return ok
}

// learnAt is the size of a subtree, in expansions, at which the tier
// looks for a deadlock pattern in the subtree's root: Festival's 64 (the
// FESS paper; 32 and 128 measured in docs/measurements.md).
const learnAt = 64

// learn counts the expansion of node id of tr in the subtrees of its
// ancestors, and looks for a deadlock pattern (deadlock.Patterns) in each
// ancestor whose subtree has just grown to learnAt expansions without
// solving the level. A pattern found there proves that ancestor dead, and
// with it every node below it (deadAbove) and every later node that holds
// the pattern, which alive then finds.
func (t *tier) learn(tr *tree, id uint32) {
	for a := id; a != noParent; a = tr.at(a).parent {
		nd := tr.at(a)
		nd.sub++
		if nd.sub > learnAt {
			return // it had its turn, and every subtree above it too
		}
		if nd.sub < learnAt || nd.parent == noParent {
			continue
		}
		t.spare.Unpack(tr.store.Key(a))
		if t.patterns.Learn(t.spare) {
			nd.state = dead
		}
	}
}

// deadAbove reports whether an ancestor of node id of tr was proved dead
// (by a pattern learned in it): every position below a dead one is dead
// too.
func deadAbove(tr *tree, id uint32) bool {
	for a := tr.at(id).parent; a != noParent; a = tr.at(a).parent {
		if tr.at(a).state == dead {
			return true
		}
	}
	return false
}
