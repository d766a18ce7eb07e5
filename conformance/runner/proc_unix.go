//go:build unix

package runner

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the command in a process group of its own, so a
// timeout kills what it started too (a shell's children, an npm script's
// node).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the command's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
