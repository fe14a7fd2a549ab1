//go:build linux

package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An output on /proc or /sys is refused, naming the file system: writing
// /proc/self/comm renames the process and keeps nothing. A file on a disk
// is taken.
func TestCheckRefusesPseudoFileSystems(t *testing.T) {
	disk := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(disk, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, fs string // fs "" when the output is taken
	}{
		{"/proc/self/comm", "proc"},
		{"/proc/self/new-output", "proc"},
		{"/proc/sys/kernel/hostname", "proc"},
		{"/sys/kernel/uevent_helper", "sysfs"},
		{"/sys/new-output", "sysfs"},
		{disk, ""},
		{disk + ".new", ""},
	} {
		if tc.fs != "" {
			if _, err := os.Stat(filepath.Dir(tc.path)); err != nil {
				continue // not mounted here
			}
		}
		err := Check(tc.path)
		if tc.fs == "" {
			if err != nil {
				t.Errorf("Check(%s) = %v, want nil", tc.path, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), "is on "+tc.fs) {
			t.Errorf("Check(%s) = %v, want a refusal naming it and %s", tc.path, err, tc.fs)
		}
	}
}
