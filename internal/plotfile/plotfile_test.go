package plotfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
)

// TestWriteTakesTheFormatFromTheExtension writes one plot as .PNG and as
// .svg and checks each file starts as its format does; an extension that
// names no format is an error and writes nothing.
func TestWriteTakesTheFormatFromTheExtension(t *testing.T) {
	dir := t.TempDir()
	p := plot.New()
	p.Title.Text = "test"
	for name, head := range map[string]string{"a.PNG": "\x89PNG", "b.svg": "<?xml"} {
		path := filepath.Join(dir, name)
		if err := Write(p, path); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte(head)) {
			t.Errorf("%s starts %q, want %q", name, data[:min(len(data), 8)], head)
		}
	}
	bad := filepath.Join(dir, "c.nope")
	if err := Write(p, bad); err == nil {
		t.Error("an unknown extension: no error")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("an unknown extension left a file: %v", err)
	}
}
