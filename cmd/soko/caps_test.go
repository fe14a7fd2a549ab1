package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestServeFlagRanges replays soko serve taking --jobs 1000000, --queue 1e8
// and --memory 1000TiB, then echoing such values reformatted ("1024000.0GiB",
// "1000h0m0s"), taking --memory 1KiB and exiting 1 on --addr :99999: every
// flag of a server is ranged, --memory from 16 MiB, and a value past its
// range, or an address that cannot be listened on, is a usage error naming
// the flag as typed and what it takes. The context is cancelled, so that a
// server started by mistake stops at once.
func TestServeFlagRanges(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--queue", "100000000"}, `bad --queue "100000000": want a whole number from 0 to`},
		{[]string{"--memory", "1000TiB"}, `bad --memory "1000TiB": more than this machine's memory`},
		{[]string{"--max-body", "1GiB"}, `bad --max-body "1GiB": want a size from 1 byte to 64.0MiB`},
		{[]string{"--time", "1000h"}, `bad --time "1000h": want at most 24h a job`},
		{[]string{"--queue", "1e8"}, `bad --queue "1e8": want a whole number from 0 to`},
		{[]string{"-j", "1", "--queue", "6.5e1"}, `bad --queue "6.5e1": want a whole number from 0 to 64 (64 per --jobs slot)`},
		{[]string{"--memory", "1KiB"}, `bad --memory "1KiB": want at least 16MiB a job`},
		{[]string{"--memory", "16777215B"}, `bad --memory "16777215B": want at least 16MiB a job`},
		{[]string{"--memory", "0.0"}, `--memory 0.0 (no limit, as on solve and bench) is refused`},
		{[]string{"--time", "0ms"}, `--time 0ms (no limit, as on solve and bench) is refused`},
		{[]string{"--idle", "0s"}, `bad --idle "0s": want a duration of more than 0`},
		{[]string{"--max-conns", "1e5"}, `bad --max-conns "1e5": want a whole number from 1 to 10000`},
		{[]string{"--addr", "127.0.0.1:99999"}, `bad --addr "127.0.0.1:99999": port "99999": want a number from 0 to 65535`},
		{[]string{"--addr", ":-1"}, `bad --addr ":-1": port "-1"`},
		{[]string{"--addr", "127.0.0.1"}, `bad --addr "127.0.0.1": want HOST:PORT, such as 127.0.0.1:8080 or :0`},
		{[]string{"--addr", "::1:80"}, `bad --addr "::1:80": want HOST:PORT`},
		{[]string{"--addr", "192.0.2.1:0"}, `bad --addr "192.0.2.1:0": listen tcp 192.0.2.1:0: `},
		{[]string{"--max-conns", "0"}, `bad --max-conns "0": want a whole number from 1 to 10000`},
		{[]string{"--max-conns", "1000000"}, `bad --max-conns "1000000": want a whole number from 1 to 10000`},
		{[]string{"--max-conns", "10", "--max-conns-per-ip", "11"}, `bad --max-conns-per-ip "11": want a whole number from 1 to --max-conns (10)`},
		{[]string{"--max-conns-per-ip", "0"}, `bad --max-conns-per-ip "0"`},
	} {
		var out, errOut strings.Builder
		err := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...), strings.NewReader(""), &out, &errOut)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %q: %v, want a usage error %q", tc.args, err, tc.want)
		}
	}
	// At the edges of the ranges the server starts, and stops at once on
	// the cancelled context.
	for _, args := range [][]string{
		{"--memory", "16MiB"}, {"--time", "24h"}, {"--queue", "0"}, {"--max-body", "1B"}, {"--idle", "1ns"},
		{"--max-conns", "1", "--max-conns-per-ip", "1"}, {"--addr", "127.0.0.1:0"}, {"--addr", "[::1]:0"},
	} {
		var out, errOut strings.Builder
		err := run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), &out, &errOut)
		var u usageError
		if errors.As(err, &u) {
			t.Errorf("serve %q: %v", args, err)
		}
	}
}

// TestWorkersCappedByCores replays train-dist and train-puct -j 1000000, which
// started a million goroutines (1.0 and 1.6 GB, 12 to 14 s to answer
// SIGINT), and serve --jobs 1000000: -j is capped at 16 per core on every
// command, with a note naming the flag. The context is cancelled before the work, so each
// command stops as soon as it has set its workers.
func TestWorkersCappedByCores(t *testing.T) {
	ceiling := maxWorkersPerCore * runtime.NumCPU()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"train-dist", "--out", filepath.Join(dir, "d.bin"), "--levels", "100000", "-j", "1000000", "--quiet"},
		{"train-puct", "--out", filepath.Join(dir, "p.bin"), "--games", "100000", "-j", "1000000", "--quiet"},
		{"generate", "--count", "100000", "-j", "1000000", "--out", filepath.Join(dir, "g.xsb")},
		{"serve", "--addr", "127.0.0.1:0", "--jobs", "1000000"},
	} {
		var out, errOut strings.Builder
		run(ctx, args, strings.NewReader(""), &out, &errOut)
		flag := "-j"
		if args[0] == "serve" {
			flag = "--jobs"
		}
		if want := fmt.Sprintf("%s: %s 1000000: using %d ", args[0], flag, ceiling); !strings.Contains(errOut.String(), want) {
			t.Errorf("%s: stderr %q, want the note %q", args[0], errOut.String(), want)
		}
	}
	// Within the ceiling, no more workers than the work.
	if got := capWorkers(nil, "x", 1000000, 3); got != 3 {
		t.Errorf("-j 1000000 for 3 runs: %d workers, want 3", got)
	}
}

// TestGenerateBand replays generate --min-pushes 100000, which tried rooms
// for ever: a band out of reach of the generator is refused before any
// work, and one it does not meet ends after --max-rooms rooms with what
// they reached.
func TestGenerateBand(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"--min-pushes", "100000"}, true, "at least 100000 pushes: out of reach, since the solution a level is built with has at most 300 pushes with 4 boxes"},
		{[]string{"--min-pushes", "301"}, true, "at most 300 pushes"},
		{[]string{"--boxes", "6", "--min-pushes", "451"}, true, "at most 450 pushes with 6 boxes"},
		{[]string{"--min-expanded", "20001"}, true, "at least 20001 expansions: out of reach, since each check stops at 20000"},
		{[]string{"--max-rooms", "0"}, true, `bad --max-rooms "0": want a whole number from 1 to 1000000`},
		{[]string{"--min-pushes", "300", "--max-rooms", "20"}, false, "level 1: no acceptable level in 20 rooms ("},
	} {
		_, _, err := soko(t, "", append([]string{"generate", "--count", "3"}, tc.args...)...)
		var u usageError
		if err == nil || errors.As(err, &u) != tc.usage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("generate %q: %v, want %s %q", tc.args, err, map[bool]string{true: "a usage error", false: "an error"}[tc.usage], tc.want)
		}
	}
	// What the rooms reached: the optima of the levels measured.
	_, _, err := soko(t, "", "generate", "--count", "1", "--min-pushes", "300", "--max-rooms", "20")
	if err == nil || !regexp.MustCompile(`\(\d+ levels? measured and dropped: optimal pushes \d+ to \d+, expansions \d+ to \d+\)`).MatchString(err.Error()) {
		t.Errorf("generate past --max-rooms: %v", err)
	}
}

// gcWriter counts lines and, at every line number in at, collects the
// garbage and records the live heap: what a command holds while it
// writes.
type gcWriter struct {
	lines int
	at    map[int]bool
	heap  []uint64
}

func (w *gcWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		if c != '\n' {
			continue
		}
		w.lines++
		if w.at[w.lines] {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			w.heap = append(w.heap, ms.HeapAlloc)
		}
	}
	return len(p), nil
}

// TestListStreams replays soko list on a 64 MB file of tiny levels taking
// 1.5 GB: list holds no level once it is printed, so the live heap while
// it prints 200,000 levels stays within 10 MB of where it started, where
// holding them took some 40 MB.
func TestListStreams(t *testing.T) {
	const n = 200000
	path := filepath.Join(t.TempDir(), "tiny.xsb")
	if err := os.WriteFile(path, bytes.Repeat([]byte("#####\n#@$.#\n#####\n\n"), n), 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	w := &gcWriter{at: map[int]bool{n / 2: true, n: true}}
	if err := run(context.Background(), []string{"list", path}, strings.NewReader(""), w, io.Discard); err != nil {
		t.Fatal(err)
	}
	if w.lines != n || len(w.heap) != 2 {
		t.Fatalf("%d lines listed, want %d", w.lines, n)
	}
	for i, h := range w.heap {
		if h > before+10<<20 {
			t.Errorf("live heap at line %d: %d MB, %d MB more than before the list", (i+1)*n/2, h>>20, (h-before)>>20)
		}
	}
}
