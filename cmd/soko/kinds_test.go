package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"

	"soko/level"
	"soko/levels"
)

// Files of each kind soko writes, and others it must not write over.
var kindSamples = map[string][]byte{
	"model":   []byte("SOKONN\r\n\x01\x00\x00\x00\x01\x00\x00\x00weights"),
	"profile": heapProfile(),
	"gzip":    gzipData("{\"level\":\"microban:1\"}\n"),
	"targz":   gzipData(tarData("notes.txt", "call Bob\n")),
	"pdf":     []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"),
	"png":     []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
	"results": []byte(`{"level":"microban:1","solver":"astar","status":"solved"}` + "\n"),
	"trace":   []byte(`{"level":"microban:1","event":"member","t_s":0.0003,"status":"solved"}` + "\n"),
	"notes":   []byte("notes: call Bob"), // one line, no newline
	"nul":     []byte("####\n#@$.#\x00\n####\n"),
	"levels":  []byte("; 1\n\n#####\n#@$.#\n#####\n"),
}

// heapProfile is a profile as --memprofile writes it.
func heapProfile() []byte {
	var b bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// tarData is a tar archive of one file.
func tarData(name, content string) string {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content))})
	w.Write([]byte(content))
	w.Close()
	return b.String()
}

func gzipData(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// An output that exists, is not empty and is not of the kind the output
// makes is refused before any work, naming the file and what it holds,
// and left as it was: solve --out and bench --sok (merged into: a level
// collection), generate --out (levels), train, train-dist and train-puct
// --out (a model), --trace (a trace), --cpuprofile and --memprofile (a
// pprof profile, gzip).
func TestOutputOfAnotherKindRefused(t *testing.T) {
	dir := t.TempDir()
	outputs := []struct {
		own  string // the sample of the output's own kind
		args func(path string) []string
	}{
		{"levels", func(p string) []string { return []string{"solve", "microban:2", "--algo", "astar", "--out", p} }},
		{"levels", func(p string) []string {
			return []string{"bench", "microban:2", "--algo", "astar", "--out", filepath.Join(dir, "b.jsonl"), "--sok", p}
		}},
		{"levels", func(p string) []string { return []string{"generate", "--count", "1", "--out", p} }},
		{"model", func(p string) []string {
			return []string{"train", "microban:2", "--rounds", "1", "--out", p, "--plot", p + ".png"}
		}},
		{"model", func(p string) []string { return []string{"train-dist", "--out", p} }},
		{"model", func(p string) []string { return []string{"train-puct", "--out", p} }},
		{"model", func(p string) []string { return []string{"train-lts", "--out", p} }},
		{"trace", func(p string) []string { return []string{"solve", "microban:1", "--algo", "fess", "--trace", p} }},
		{"profile", func(p string) []string { return []string{"solve", "microban:1", "--algo", "astar", "--cpuprofile", p} }},
		{"profile", func(p string) []string { return []string{"solve", "microban:1", "--algo", "astar", "--memprofile", p} }},
	}
	for _, o := range outputs {
		for name, content := range kindSamples {
			if name == o.own {
				continue
			}
			path := filepath.Join(dir, "out-"+name)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			args := o.args(path)
			_, _, err := soko(t, "", args...)
			if err == nil || !strings.Contains(err.Error(), path+" exists and is not ") || !strings.Contains(err.Error(), "it holds ") {
				t.Errorf("%q over %s: %v, want a refusal naming the file and what it holds", args, name, err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
				t.Errorf("%q over %s: the file was changed to %q", args, name, got)
			}
			os.Remove(path)
		}
	}
}

// What a refusal says the file holds.
func TestOutputKindNamed(t *testing.T) {
	for name, want := range map[string]string{
		"model":   "a soko model",
		"gzip":    "gzip-compressed text",
		"targz":   "a gzip-compressed tar archive",
		"pdf":     "a PDF document",
		"png":     "a PNG image",
		"results": "JSON lines",
		"trace":   "a soko trace",
		"notes":   "text with no level in it",
		"nul":     "binary data, not text (a NUL byte at offset 10)",
		"levels":  "a level file (1 level)",
	} {
		if got := kindLevels.seems(kindSamples[name]); !strings.Contains(got, want) {
			t.Errorf("%s: seems %q, want %q", name, got, want)
		}
	}
}

// A file of the output's own kind, an empty one and a missing one are
// taken: each kind recognises its own sample, and only that.
func TestOutputOfItsKindTaken(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		kind fileKind
		own  string
	}{
		{kindLevels, "levels"},
		{kindModel, "model"},
		{kindTrace, "trace"},
		{kindProfile, "profile"},
		{kindPlot, "png,pdf"},
	} {
		for name, content := range kindSamples {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			err := sameKind("cmd", "--out", path, tc.kind)
			if own := slices.Contains(strings.Split(tc.own, ","), name); own != (err == nil) {
				t.Errorf("%s over %s: %v", tc.kind.name, name, err)
			}
		}
		for _, path := range []string{filepath.Join(dir, "empty"), filepath.Join(dir, "missing")} {
			if strings.HasSuffix(path, "empty") {
				os.WriteFile(path, nil, 0o644)
			}
			if err := sameKind("cmd", "--out", path, tc.kind); err != nil {
				t.Errorf("%s over %s: %v", tc.kind.name, filepath.Base(path), err)
			}
		}
	}
	// A level file in UTF-16 with its byte order mark, and one of blank
	// lines, are taken as levels.
	utf16 := []byte{0xFF, 0xFE}
	for _, c := range "####\n#@$.#\n####\n" {
		utf16 = append(utf16, byte(c), 0)
	}
	for _, data := range [][]byte{utf16, []byte("\n\n")} {
		if err := kindLevels.check("solve", "--out", "x.sok", data); err != nil {
			t.Errorf("%q is not taken as levels: %v", data, err)
		}
	}
}

// solve --out re-reads its file before it writes: one that became a file
// of another kind meanwhile is left as it is, with an error.
func TestSokOutChangedMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "all.sok")
	o, err := openSokOut(context.Background(), "solve", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	ls, err := level.Parse(strings.NewReader("####\n#@$.#\n####\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	o.add(levels.Entry{Level: ls[0]}, "R", "test")
	png := kindSamples["png"]
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := o.save(context.Background(), io.Discard); err == nil || !strings.Contains(err.Error(), "a PNG image") {
		t.Errorf("save over a PNG: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, png) {
		t.Errorf("the PNG was changed to %q", got)
	}
}
