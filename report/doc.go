// Package report reads the records of soko bench (package bench) and
// writes the tables and plots of the seed documents.
//
// [Write] writes the tables (Markdown and CSV: levels solved per solver per
// budget, the shape of 000 Tables 6.1/6.2; per-level tables; unique states
// per tree node, 002 Table I; parameter sweeps, 001 Figs. 4–7),
// benchstat-compatible text ([WriteBenchstat]) and plots with gonum/plot, a
// column of a two-column paper wide, in PNG, SVG and PDF (levels solved:
// bars at one budget, vs budget at several, 002 Figs. 3/4; levels solved
// within a time, the cactus plot; solve-time histogram in log-spaced bins,
// 004 Fig. 6; per-level push-count difference, 000 Figs. 6.1/6.2; the
// per-level times of two solvers against each other, log–log; unique
// states per node). Times are of the kind Options.Time names: the
// search's solve time by default, not the wall time that holds the
// optimizer's work (see Time); the tables give the PAR-2 score beside the
// counts.
//
// A report is made in memory before any file is written, and every file is
// checked before the first is (see reportFiles).
package report
