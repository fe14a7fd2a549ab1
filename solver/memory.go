package solver

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// fallbackMemory is assumed when the machine's memory cannot be read.
const fallbackMemory = 4 << 30

// PhysicalMemory returns the machine's total memory in bytes, read from
// /proc/meminfo, or 4 GiB where that cannot be read.
func PhysicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallbackMemory
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb > 0 {
				return kb << 10
			}
		}
	}
	return fallbackMemory
}

// DefaultMemory is the memory budget of one search when workers searches
// run at once: a third of physical memory shared between them, which leaves
// room for the garbage collector's headroom above the tables a search counts.
func DefaultMemory(workers int) int64 {
	return PhysicalMemory() / 3 / int64(max(workers, 1))
}
