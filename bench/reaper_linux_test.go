package bench

import (
	"context"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"soko/levels"
)

// runExternals runs each NAME=COMMAND once on microban:1 under the time
// limit and the memory limit in bytes (0: none), side by side, and returns
// the records by solver name.
func runExternals(t *testing.T, limit time.Duration, memory int64, cmds ...string) map[string]Record {
	t.Helper()
	var specs []SolverSpec
	for _, c := range cmds {
		s, err := ParseExternal(c)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	lvls, err := levels.Resolve("microban:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Record{}
	r := &Runner{Workers: len(specs), Memory: memory, Write: func(rec Record) error { got[rec.Solver] = rec; return nil }}
	if _, err := r.runList(context.Background(), planJobs(t, specs, lvls, []Budget{{Time: limit}}, []uint64{1})); err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		if _, ok := got[s.Name]; !ok {
			t.Fatalf("no record for %s", s.Name)
		}
	}
	return got
}

// TestExternalPeakIsTheChilds: an external program's peak memory is its own,
// not soko's, even after soko has grown big.
func TestExternalPeakIsTheChilds(t *testing.T) {
	big := make([]byte, 256<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	got := runExternals(t, 20*time.Second, 0,
		"idle=sleep 0.1 # {level}",
		// tail -c keeps its last 60 MB in memory.
		"alloc=head -c 60000000 /dev/zero | tail -c 60000000 >/dev/null # {level}")
	runtime.KeepAlive(big)
	for name, rec := range got {
		if rec.Status != StatusFailed {
			t.Errorf("%s: status %q (%s), want failed (no solution printed)", name, rec.Status, rec.Error)
		}
	}
	const mb = 1 << 20
	if p := got["idle"].PeakBytes; p <= 0 || p > 30*mb {
		t.Errorf("sleep's peak is %.1f MiB: soko has 256 MiB, sleep a few", float64(p)/mb)
	}
	if p := got["alloc"].PeakBytes; p < 57*mb || p > 150*mb {
		t.Errorf("a program holding 60 MB has a peak of %.1f MiB", float64(p)/mb)
	}
}

// TestExternalCPUOfKilledGroup: a program killed at the time limit behind a
// shell (with or without exec), or left behind by one, has its CPU time
// counted, and nothing it started outlives the run.
func TestExternalCPUOfKilledGroup(t *testing.T) {
	cmds := []string{
		`wrapped=sh -c 'sh -c "while :; do :; done"' # {level}`,
		`exec=exec sh -c 'while :; do :; done' # {level}`,
	}
	if _, err := exec.LookPath("setsid"); err == nil {
		// Leaves a process of its own session behind and ends at once.
		cmds = append(cmds, `detached=setsid sh -c 'while :; do :; done' & sleep 0.3 # {level}`)
	}
	start := time.Now()
	got := runExternals(t, time.Second, 0, cmds...)
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("runs of 1 s took %s", el)
	}
	for name, rec := range got {
		want := "time limit"
		if name == "detached" {
			want = StatusFailed
		}
		if rec.Status != want {
			t.Errorf("%s: status %q (%s), want %q", name, rec.Status, rec.Error, want)
		}
		// A busy loop for 1 s on a loaded machine may get only a small
		// part of a core (0.077 s was seen with a load of 9 on 2 cores);
		// counting only the shell gives about 0.001 s.
		least := 0.02
		if name == "detached" {
			least = 0.006 // it ran for 0.3 s
		}
		if rec.CPUS < least || rec.CPUS > 1.5*float64(runtime.NumCPU()) {
			t.Errorf("%s: cpu_s %.3f in %.3f s of wall time", name, rec.CPUS, rec.WallS)
		}
	}
}

// A program that ends at once keeps its exit status and wall time, however
// fast it is: the reaper, not the shell that started it, waits for it.
func TestExternalEndsAtOnce(t *testing.T) {
	spec, err := ParseExternal(`crashy=kill -SEGV $$ # {level}`)
	if err != nil {
		t.Fatal(err)
	}
	lvls, err := levels.Resolve("microban:1-12", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Workers: 4, Write: func(rec Record) error {
		if rec.Status != StatusFailed || rec.Error != "signal: segmentation fault" || rec.WallS <= 0 || rec.PeakBytes <= 0 {
			t.Errorf("%s: status %q error %q wall %g peak %d", rec.Level, rec.Status, rec.Error, rec.WallS, rec.PeakBytes)
		}
		return nil
	}}
	if _, err := r.runList(context.Background(), planJobs(t, []SolverSpec{spec}, lvls, []Budget{{Time: 10 * time.Second}}, []uint64{1})); err != nil {
		t.Fatal(err)
	}
}
