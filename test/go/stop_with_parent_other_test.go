//go:build !linux

package emulator_test

import "os/exec"

// stopWithParent: only Linux can tie a child's life to its parent's.
func stopWithParent(*exec.Cmd) {}
