//go:build !linux

package bench

import "time"

// threadCPU is not available here: CPU time is read on Linux only.
func threadCPU() time.Duration { return -1 }

// processCPU is not available here: CPU time is read on Linux only.
func processCPU() time.Duration { return -1 }
