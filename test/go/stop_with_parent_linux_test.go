package emulator_test

import (
	"os/exec"
	"syscall"
)

// stopWithParent has the kernel stop the emulator if the test process dies
// first (a timeout's panic), so no emulator outlives its tests.
func stopWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
