//go:build !linux

package bench

import "time"

// threadCPU is not available here: per-thread CPU time is read on Linux only.
func threadCPU() time.Duration { return -1 }
