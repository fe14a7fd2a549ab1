// Package regress holds regression tests across the solvers: a test-only
// package, so that it can import every solver without an import cycle.
package regress
