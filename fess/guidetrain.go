package fess

import (
	"context"
	"sync"

	"soko/guide"
	"soko/internal/parallel"
	"soko/level"
	"soko/sokoban"
	"soko/solver"
)

// GuideData is what soko train-guide learns from: per level, the examples
// of the solution the default portfolio found within the node budget (nil
// when it found none), in the order of the levels.
type GuideData struct {
	Examples [][]guide.Example
	Solved   int
}

// CollectGuideData solves each level with fess's default portfolio, one
// thread, within nodes expansions and memory bytes, and reads the guide's
// examples off each solution (GuideExamples) in a table of 2^bits rows.
// Node budgets make it reproducible: the data do not depend on workers.
// done, when set, is called after each level with the counts so far.
func CollectGuideData(ctx context.Context, lvls []*level.Level, nodes, memory int64, bits uint, workers int, done func(levels, solved int)) (GuideData, error) {
	d := GuideData{Examples: make([][]guide.Example, len(lvls))}
	var (
		mu       sync.Mutex
		finished int
		firstErr error
	)
	err := parallel.Each(ctx, len(lvls), workers, func(i int) {
		ex, solved, err := guideDataOf(ctx, lvls[i], nodes, memory, bits)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && firstErr == nil && ctx.Err() == nil {
			firstErr = err
		}
		d.Examples[i] = ex
		finished++
		if solved {
			d.Solved++
		}
		if done != nil {
			done(finished, d.Solved)
		}
	})
	if firstErr != nil {
		return d, firstErr
	}
	return d, err
}

// guideDataOf solves l and returns the examples of its solution.
func guideDataOf(ctx context.Context, l *level.Level, nodes, memory int64, bits uint) ([]guide.Example, bool, error) {
	opts := solver.Options{Budget: solver.Budget{Nodes: nodes, Memory: memory}, Seed: 1, Threads: 1}
	res, err := solver.Run(ctx, FESS{}, l, opts)
	if err != nil || res.Status != solver.Solved {
		return nil, false, err
	}
	b, err := sokoban.NewBoard(l)
	if err != nil {
		return nil, false, err
	}
	pushes, err := b.PushesOf(res.Moves)
	if err != nil {
		return nil, false, err
	}
	ex, err := GuideExamples(ctx, l, pushes, bits)
	return ex, true, err
}
