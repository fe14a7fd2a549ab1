// Package golden compares test output with golden files in testdata/, and
// rewrites them when the test binary runs with -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Check compares got with testdata/name, first writing got there under
// -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test with -update to accept it):\n%s", path, got)
	}
}

// Updating reports whether the test binary runs with -update, for a test
// that rewrites a generated file other than its golden files.
func Updating() bool { return *update }
