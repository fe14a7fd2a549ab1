package sokfile

import (
	"errors"
	"strings"
	"testing"

	"soko/level"
)

// FuzzRead: reading never panics, fails only with a *level.Error, and what
// Bytes writes reads back to the same levels, solutions and snapshots and
// writes the same text again. go test runs the seeds; go test -fuzz=FuzzRead explores.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		foreign,
		"",
		"#####\n#@$.#\n#####\n\nSolution (1 push, 1 move)\nR\nSolver: soko fess\nDate: 2026-11-26T18:40:00Z\n",
		"Solution\nR\n\n#####\n#@$.#\n#####\n",
		"#####\n#@$.#\n#####\nSolution\nR\n#####\n#@$.#\n#####\nSolution\n3R\n",
		"#####\n#@$.#\n#####\nTitle: x\nSolution\nR\nText\n#####\n#@$.#\n#####\n",
		"#####\n#@$.#\n#####\nSolution\nR\nTitle: x\n#####\n#@$.#\n#####\n",
		"#####\n#@$.#\n#####\nSolution\nR\nAuthor: y\n\nTitle: x\n#####\n#@$.#\n#####\n",
		"\uFEFFTitle\r\n#####\r\n#@$.#\r\n#####\r\n\r\nsolution:\r\nr R\r\n",
		"#####\n#@\t$.#\n#####\nSolution\nR\n\n5#|#@$.#|5#\nSolution\nR\n",
		"#####\n#@ $.#\n#####\n\nSnapshot (0 pushes, 1 move): x\nr\nDate: 2026\n\nSnapshot 2\nrR\nSolution\nrrR\n",
		"#####\n#@ $.#\n#####\nSnapshot: (1 push, 1 move)\nrl\nSnapshot\nrX\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		file, err := Read(strings.NewReader(s), "fuzz.sok")
		if err != nil {
			var e *level.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *level.Error: %v", err, err)
			}
			return
		}
		text := string(file.Bytes())
		back, err := Read(strings.NewReader(text), "fuzz.sok")
		if err != nil {
			t.Fatalf("written text does not read back: %v\n%q", err, text)
		}
		if len(back.Entries) != len(file.Entries) {
			t.Fatalf("%d entries read back, want %d\n%q", len(back.Entries), len(file.Entries), text)
		}
		for i, e := range file.Entries {
			b := back.Entries[i]
			if (e.Level == nil) != (b.Level == nil) || len(b.Solutions) != len(e.Solutions) ||
				len(b.Snapshots) != len(e.Snapshots) ||
				e.Level != nil && (e.Level.Title != b.Level.Title || e.Level.Author != b.Level.Author) {
				t.Fatalf("entry %d differs when read back\n%q\nfrom\n%q", i, text, s)
			}
			for k, sol := range e.Solutions {
				if b.Solutions[k].LURD != sol.LURD {
					t.Fatalf("entry %d solution %d: %q read back, want %q", i, k, b.Solutions[k].LURD, sol.LURD)
				}
			}
		}
		for i, e := range file.Entries {
			for k, sn := range e.Snapshots {
				if b := back.Entries[i].Snapshots[k]; b.LURD != sn.LURD || b.Name != strings.TrimSpace(sn.Name) {
					t.Fatalf("entry %d snapshot %d: %+v read back, want %+v", i, k, b, sn)
				}
			}
		}
		if again := string(back.Bytes()); again != text {
			t.Fatalf("written twice differs:\n%q\nthen\n%q", text, again)
		}
	})
}
