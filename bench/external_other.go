//go:build !unix

package bench

import (
	"os"
	"os/exec"
)

func setProcessGroup(cmd *exec.Cmd) {}

func maxRSS(ps *os.ProcessState) int64 { return 0 }
