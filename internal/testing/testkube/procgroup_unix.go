//go:build unix

package testkube

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a new process group.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
