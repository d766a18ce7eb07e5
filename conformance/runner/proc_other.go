//go:build !unix

package runner

import "os/exec"

// ownProcessGroup does nothing where there are no process groups.
func ownProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the command itself.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
