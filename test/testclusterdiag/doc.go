// Package testclusterdiag checks that bin/testcluster shows the failures an
// apply must diagnose the way a real cluster does, as the narrow `edit`
// identity sees them through client-go: a crash-looping container with its
// back-off and restarts, an OOMKilled last state, a pod too big for the node
// left Pending with the scheduler's FailedScheduling event (events.k8s.io/v1),
// a missing Secret's CreateContainerConfigError, and container logs read
// through the API server's pods/log subresource from the simulated node's
// kubelet API, with a Secret-backed $(VAR) expanded. It also checks that the
// node's kubelet API answers only the API server.
//
// The package has no code besides its tests.
package testclusterdiag
