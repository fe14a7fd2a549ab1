// Package parallel runs the numbered jobs of a batch on a few goroutines.
// Each job writes its result to its own slot, so that what a batch makes
// does not depend on how many goroutines made it: the trainers' data and
// models are the same, byte for byte, whatever -j.
package parallel

import (
	"context"
	"sync"
)

// Each calls job(i) for each i from 0 to n−1 (Run without a worker's
// state).
func Each(ctx context.Context, n, workers int, job func(i int)) error {
	return Run(ctx, n, workers, func() struct{} { return struct{}{} }, func(_ struct{}, i int) { job(i) })
}

// Run calls job(w, i) for each i from 0 to n−1 on workers goroutines (at
// least one, and no more than n: an idle one only costs memory), handing
// out the indices in increasing order; w is the state of the goroutine
// that runs the job, made by worker when it starts. Once ctx is done no
// more jobs are handed out; Run waits for those running and returns
// ctx.Err().
func Run[W any](ctx context.Context, n, workers int, worker func() W, job func(w W, i int)) error {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := worker()
			for i := range next {
				job(w, i)
			}
		}()
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}
