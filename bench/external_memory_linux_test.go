package bench

import (
	"testing"
	"time"
)

// TestExternalMemoryLimit replays an external program over --memory
// recorded as "time limit": a program whose process grows past the memory
// limit is killed and recorded as "memory limit", as is one whose peak
// went over it, however it ended; a program within it keeps its status.
func TestExternalMemoryLimit(t *testing.T) {
	const limit = 32 << 20
	got := runExternals(t, 20*time.Second, limit,
		// tail -c keeps its last 150 MB in memory, then the shell sleeps
		// past the time limit: without the memory limit, a time limit.
		"hog=head -c 150000000 /dev/zero | tail -c 150000000 >/dev/null; sleep 30 # {level}",
		// 60 MB held for a moment, then the program ends at once.
		"spike=head -c 60000000 /dev/zero | tail -c 60000000 >/dev/null # {level}",
		"small=sleep 0.1 # {level}",
	)
	for name, want := range map[string]string{"hog": "memory limit", "spike": "memory limit", "small": StatusFailed} {
		rec := got[name]
		if rec.Status != want {
			t.Errorf("%s: status %q (peak %d bytes, wall %.1fs, %s), want %q", name, rec.Status, rec.PeakBytes, rec.WallS, rec.Error, want)
		}
	}
	if w := got["hog"].WallS; w >= 20 {
		t.Errorf("hog ran %.1fs, to the time limit: not killed at the memory limit", w)
	}
	if e := got["small"].Error; e != "no solution printed" {
		t.Errorf("small: error %q", e)
	}
}
