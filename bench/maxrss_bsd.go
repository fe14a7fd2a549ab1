//go:build unix && !linux && !darwin && !ios

package bench

import "syscall"

// maxRSSBytes: the BSDs report kilobytes.
func maxRSSBytes(ru *syscall.Rusage) int64 { return int64(ru.Maxrss) * 1024 }
