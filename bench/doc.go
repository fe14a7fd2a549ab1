// Package bench runs solvers on levels under the same rules and records
// the results; package report turns them into tables and plots.
//
// A benchmark is a list of [Job]s: every combination of solver (with its
// parameters), level, [Budget] and seed. [Runner] runs them on a worker pool,
// one run per worker, and hands each finished run to a sink as a [Record]:
// one JSON line in the results file. A results file is its own checkpoint:
// [OpenResults] reads the runs already there (their [Record.Key]; a file of
// anything but records is refused, untouched), cuts off a line a hard kill
// left half written, and appends; [Pending] drops the jobs
// already done. Runs cut short by cancellation (Ctrl-C) are never written, so
// a resumed benchmark neither loses nor repeats a run.
//
// [Shard] picks a deterministic slice of the jobs, so that N machines (a
// Kubernetes Indexed Job, GNU parallel) each run one slice; [Merge] joins the
// slices' files again.
//
// External programs can be benchmarked beside soko's own solvers
// ([External]); their solutions are replayed by package verify like ours.
// [Presets] bundle the seeds' experiments.
package bench
