package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"soko/internal/outfile"
)

// profileFiles are the --cpuprofile and --memprofile flags: where to write
// a CPU profile of the run and a heap profile at its end, in the format of
// runtime/pprof, for 'go tool pprof'.
type profileFiles struct {
	cpu, mem string
}

func (p *profileFiles) register(fs *flag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof FILE)")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile at the end of the run to `FILE` (allocations since the start: go tool pprof -sample_index=alloc_space FILE)")
}

// check refuses, before any work, profile paths that exist and are not
// regular files.
func (p *profileFiles) check(cmd string) error {
	if err := checkOut(cmd, "--cpuprofile", p.cpu); err != nil {
		return err
	}
	return checkOut(cmd, "--memprofile", p.mem)
}

// start creates the profile files, so that a path that cannot be written
// fails before any work is done, and starts the CPU profile. The returned
// stop ends the CPU profile and writes the heap profile; it must be called
// once, and its error reported.
func (p *profileFiles) start() (stop func() error, err error) {
	var cpu, mem *os.File
	closeAll := func() {
		for _, f := range []*os.File{cpu, mem} {
			if f != nil {
				f.Close()
			}
		}
	}
	if p.cpu != "" {
		if cpu, err = outfile.Create(p.cpu); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if p.mem != "" {
		if mem, err = outfile.Create(p.mem); err != nil {
			closeAll()
			return nil, fmt.Errorf("--memprofile: %w", err)
		}
	}
	if cpu != nil {
		if err := pprof.StartCPUProfile(cpu); err != nil {
			closeAll()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile: %w", err))
			}
		}
		if mem != nil {
			runtime.GC() // the heap profile shows the state of the last collection
			if err := pprof.WriteHeapProfile(mem); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile: %w", err))
			}
			if err := mem.Close(); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile: %w", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}
