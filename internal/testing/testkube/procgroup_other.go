//go:build !unix

package testkube

import "os/exec"

// ownProcessGroup does nothing where process groups are not Unix's.
func ownProcessGroup(*exec.Cmd) {}
