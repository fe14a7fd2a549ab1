//go:build unix

package levels

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

const twoLevels = "#####\n#@$.#\n#####\n\n######\n#@ $.#\n######\n"

// A pipe named twice, under one spelling or two, is read once: its levels
// may be picked by both names, and a level named through both is found
// twice, where the second open waited for ever for a writer.
func TestPipeNamedTwice(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := syscall.Mkfifo("ff", 0o644); err != nil {
		t.Skip(err)
	}
	resolve := func(specs ...string) ([]Entry, error) {
		go func() { // one writer: the pipe is opened and read once
			if f, err := os.OpenFile("ff", os.O_WRONLY, 0); err == nil {
				f.WriteString(twoLevels)
				f.Close()
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return ResolveEntries(ctx, specs, nil)
	}
	if es, err := resolve("ff:1", "./ff:2"); err != nil || len(es) != 2 || es[1].Level.Source != "ff" {
		t.Errorf("ff:1 ./ff:2: %d levels, %v", len(es), err)
	}
	if _, err := resolve("ff", "./ff:2"); err == nil || !strings.Contains(err.Error(), "both name level ff:2") || !errors.As(err, new(*SpecError)) {
		t.Errorf("ff ./ff:2: %v; want a SpecError naming level ff:2", err)
	}
}

// Standard input redirected from a file is that file: naming both is
// naming its levels twice.
func TestStdinIsItsFile(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("two.xsb", []byte(twoLevels), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("two.xsb")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ResolveEntries(context.Background(), []string{"-:2", "two.xsb"}, f); err == nil || !errors.As(err, new(*SpecError)) {
		t.Errorf("-:2 two.xsb with standard input from two.xsb: %v; want a SpecError", err)
	}
}
