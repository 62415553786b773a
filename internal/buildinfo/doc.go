// Package buildinfo is what kubeplan knows about its own build: the
// version, commit and date the release build sets with -ldflags -X, else
// the Go toolchain's build information (the module version of go install,
// the VCS stamp of a build in a git checkout).
//
// It is a leaf: it imports no kubeplan package, reads nothing but the
// binary's own build information, and never prints.
package buildinfo
