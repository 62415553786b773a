// Package faults is kubeplan's fault suite: integration tests that run the
// kubeplan binary against the testcluster through a faultproxy (as the
// narrow edit identity of a namespace of their own) and break things at
// each phase of an apply — the network cut or stalled, the process killed
// or stopped past its Lease, concurrent applies of one set — then check
// what must survive any fault:
//
//   - (a) no prune after a failed apply: a member that left the set is gone
//     only if every object of the new set was written;
//   - (b) the ApplySet parent is never narrower than its live members: each
//     member's kind is in applyset.kubernetes.io/contains-group-kinds and
//     each namespace other than the parent's in
//     applyset.kubernetes.io/additional-namespaces;
//   - (c) no object of another set (nor its parent) is touched;
//   - (d) the next run, healed, converges: exit 0, creating exactly what is
//     missing and pruning exactly what left, and leaving exactly the set.
//
// Run it (about 3 minutes with a kubeplan that honours
// KUBEPLAN_LOCK_DURATION, which the tests set to 5s; about 10 without, most
// of it waiting for the 60 s Leases of killed holders to expire):
//
//	KUBEPLAN_TESTCLUSTER=$PWD/bin/testcluster CI=true go test -timeout 30m -v ./test/faults/
//
// harness_test.go runs kubeplan and checks the invariants; one file per family
// of cases: network_test.go (cut, stall), process_test.go (SIGKILL),
// lease_test.go (SIGSTOP past the Lease), concurrent_test.go.
package faults
