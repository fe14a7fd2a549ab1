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
// 004 Fig. 6; per-level push-count difference, 000 Figs. 6.1/6.2; unique
// states per node).
//
// A report is made in memory before any file is written, and every file is
// checked before the first is (see reportFiles).
package report
