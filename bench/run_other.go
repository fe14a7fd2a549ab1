//go:build !unix

package bench

import (
	"os"
	"os/exec"
)

// inGroup does nothing here (neither Linux nor another Unix): there are
// no process groups, and only the shell is killed.
func inGroup(*exec.Cmd) {}

// measure measures nothing here: CPU time and peak memory are not read.
func measure(*os.ProcessState, *usage) {}

// externalCPU is what an external run's cpu_s counts here: nothing.
const externalCPU = CPUNone

// externalPeakOwn is false here: no peak is measured.
const externalPeakOwn = false
