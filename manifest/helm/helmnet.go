package helm

import "github.com/kubeplan/kubeplan/internal/netguard"

// init installs the guard that refuses every request helm code makes
// through Go's default HTTP transport, so a program that renders charts
// through this package alone, without manifest/kustomize, has it too.
func init() { netguard.Install() }
