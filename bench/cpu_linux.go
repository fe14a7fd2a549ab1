package bench

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID of clock_gettime(2),
// clockProcessCPUTime CLOCK_PROCESS_CPUTIME_ID, and rusageThread
// RUSAGE_THREAD of getrusage(2); package syscall names none of them.
const (
	clockProcessCPUTime = 2
	clockThreadCPUTime  = 3
	rusageThread        = 1
)

// threadCPU returns the calling thread's CPU time, or -1 when it cannot be
// read. The caller must be locked to its thread. clock_gettime gives
// nanoseconds; getrusage, the fallback, counts in scheduler ticks.
func threadCPU() time.Duration { return cpuTime(clockThreadCPUTime, rusageThread) }

// processCPU returns the CPU time of the whole process, every thread of it
// (not its children), or -1 when it cannot be read.
func processCPU() time.Duration { return cpuTime(clockProcessCPUTime, syscall.RUSAGE_SELF) }

func cpuTime(clock, who int) time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); errno == 0 {
		return time.Duration(ts.Nano())
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
