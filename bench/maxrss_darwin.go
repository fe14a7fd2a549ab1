//go:build darwin || ios

package bench

import "syscall"

// maxRSSBytes: macOS reports bytes.
func maxRSSBytes(ru *syscall.Rusage) int64 { return int64(ru.Maxrss) }
