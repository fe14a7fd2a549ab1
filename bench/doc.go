// Package bench runs solvers on levels under the same rules and turns the
// results into the tables and plots of the seed documents.
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
// [Report] reads results and writes the tables (Markdown and CSV: levels
// solved per solver per budget, the shape of 000 Tables 6.1/6.2; per-level
// tables; unique states per tree node, 002 Table I), benchstat-compatible text
// ([WriteBenchstat]) and plots with gonum/plot, a column of a two-column
// paper wide, in PNG, SVG and PDF (levels solved: bars at one budget, vs
// budget at several, 002 Figs. 3/4; levels solved within a time, the cactus
// plot; solve-time histogram in log-spaced bins, 004 Fig. 6; per-level
// push-count difference, 000 Figs. 6.1/6.2; unique states per node).
//
// External programs can be benchmarked beside soko's own solvers
// ([External]); their solutions are replayed by package verify like ours.
// [Presets] bundle the seeds' experiments.
package bench
