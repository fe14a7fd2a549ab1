package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
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

// sameKind refuses, before any work, a profile path that holds a file
// that is not empty and not a profile (kindProfile).
func (p *profileFiles) sameKind(cmd string) error {
	if err := sameKind(cmd, "--cpuprofile", p.cpu, kindProfile); err != nil {
		return err
	}
	return sameKind(cmd, "--memprofile", p.mem, kindProfile)
}

// start creates the profile files, so that a path that cannot be written
// fails before any work is done, and starts the CPU profile. The returned
// stop ends the CPU profile and writes the heap profile; it must be called
// once, and its error reported: every write error of either profile is
// one (runtime/pprof drops those of the CPU profile, so they are kept by
// an errWriter), so that a profile cut short by a full disk fails the run.
func (p *profileFiles) start() (stop func() error, err error) {
	var cpu, mem io.WriteCloser
	madeCPU, madeMem := p.cpu != "" && missing(p.cpu), p.mem != "" && missing(p.mem)
	closeAll := func() {
		for _, f := range []io.WriteCloser{cpu, mem} {
			if f != nil {
				f.Close()
			}
		}
	}
	if p.cpu != "" {
		if cpu, err = createOutput(p.cpu); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if p.mem != "" {
		if mem, err = createOutput(p.mem); err != nil {
			closeAll()
			return nil, fmt.Errorf("--memprofile: %w", err)
		}
	}
	cpuW := &errWriter{w: cpu}
	if cpu != nil {
		if err := pprof.StartCPUProfile(cpuW); err != nil {
			closeAll()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			dropEmpty(p.cpu, madeCPU, cpuW.err)
			if err := firstErr(cpuW.err, cpu.Close()); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err))
			}
		}
		if mem != nil {
			runtime.GC() // the heap profile shows the state of the last collection
			memW := &errWriter{w: mem}
			err := firstErr(pprof.WriteHeapProfile(memW), memW.err)
			dropEmpty(p.mem, madeMem, err)
			if err := firstErr(err, mem.Close()); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile %s: %w", p.mem, err))
			}
		}
		return errors.Join(errs...)
	}, nil
}

// firstErr is the first of errs that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
