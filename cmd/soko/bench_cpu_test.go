package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// TestBenchThreadsCPU: with --threads 2, soko bench measures a run's CPU
// time by the process's clock under -j 1 and -j 2 (one run at a time: a run
// takes two of -j's slots), and says it does not measure it under -j 4,
// where two runs share the process.
func TestBenchThreadsCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU time is read on Linux only")
	}
	for _, tc := range []struct{ j, scope, note string }{{"1", "process", ""}, {"2", "process", ""}, {"4", "none", "CPU time is not measured"}} {
		out, errOut, err := soko(t, "", "bench", "--algo", "portfolio", "--threads", "2", "-j", tc.j, "microban:1-2")
		if err != nil {
			t.Fatal(err, errOut)
		}
		if tc.note != "" && !strings.Contains(errOut, tc.note) || tc.note == "" && strings.Contains(errOut, "not measured") {
			t.Errorf("-j %s: stderr %q", tc.j, errOut)
		}
		for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
			var r struct {
				Level    string  `json:"level"`
				CPUS     float64 `json:"cpu_s"`
				CPUScope string  `json:"cpu_scope"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			if r.CPUScope != tc.scope || (r.CPUS > 0) != (tc.scope != "none") {
				t.Errorf("-j %s, %s: cpu_s %g, cpu_scope %q; want %q", tc.j, r.Level, r.CPUS, r.CPUScope, tc.scope)
			}
		}
	}
}
