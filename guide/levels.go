package guide

import (
	"context"

	"soko/generate"
	"soko/internal/parallel"
	"soko/level"
)

// Sizes are the generated training levels' grids and boxes, in turn: from
// Boxoban's 10×10 with 4 boxes to 18×18 with 12, whose rooms stay about
// half of the grid, so that the larger ones are small dense levels.
var Sizes = []generate.Config{
	{Width: 10, Height: 10, Boxes: 4},
	{Width: 12, Height: 12, Boxes: 6},
	{Width: 14, Height: 14, Boxes: 8},
	{Width: 16, Height: 16, Boxes: 10},
	{Width: 18, Height: 18, Boxes: 12},
}

// Levels generates n training levels of seed, the sizes of Sizes in turn,
// on workers goroutines; the levels do not depend on workers. Their names
// say their size and number.
func Levels(ctx context.Context, n int, seed uint64, workers int) ([]*level.Level, error) {
	out := make([]*level.Level, n)
	errs := make([]error, n)
	err := parallel.Each(ctx, n, workers, func(i int) {
		cfg := Sizes[i%len(Sizes)]
		cfg.Seed = seed + uint64(i%len(Sizes))
		g, err := generate.One(ctx, cfg, i/len(Sizes)+1)
		if err != nil {
			errs[i] = err
			return
		}
		out[i] = g.Level
	})
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	return out, err
}
