// Command benchlintpsa measures what the pod-security lint rule costs
// kubeplan lint: the 20,000-object corpus of tools/benchlint linted with
// the rule off and with Pod Security levels set (enforce baseline, warn and
// audit restricted, the levels the Kubernetes documentation recommends),
// alternating, in one run; it reports the median wall time, CPU time and
// peak RSS of each, and their ratios.
//
//	make bench-lint-pod-security   # go run ./tools/benchlintpsa [-doc docs/benchmarks.md]
package main
