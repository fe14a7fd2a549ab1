// Package citations holds repository-wide checks on what the code and the
// documents cite: the five source documents are listed in the README's
// References by their numbers (000 to 004), and no file points outside the
// repository (to the machine's shared folders, or to the source documents'
// own files, which are not part of it). It has no code; see its tests.
package citations
