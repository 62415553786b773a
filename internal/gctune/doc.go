// Package gctune sets the Go garbage collector of a long-running kubeplan
// serve process: a lower GOGC than a one-shot command's (a round's
// garbage is collected at half the live heap, not once the heap has
// doubled), and a soft memory limit under the container's memory limit
// (cgroup v2 memory.max, or v1 memory.limit_in_bytes) so that a burst
// makes the collector work harder instead of the pod being killed.
//
// GOGC or GOMEMLIMIT in the environment win: the user's setting is kept.
package gctune
