// Package benchkit holds what the development programs under tools/ (the
// benchmarks, the demo) and the peers of the differential suites share:
// describing the machine a run happened on, running a tool under
// /usr/bin/time for its wall time and peak RSS, medians and spreads,
// installing a peer CLI (helm, sops, kubeconform) from the Go module proxy
// into .bench/, and finding the root of the kubeplan module.
//
// It lives under internal/ rather than internal/testing/ because programs
// import it, not only tests. It is never linked into kubeplan, and it never
// reaches the network except through the Go toolchain's module proxy when
// a peer is installed.
package benchkit
