// Command benchlintpolicies measures what ValidatingAdmissionPolicies cost
// kubeplan lint: the 20,000-object corpus of tools/benchlint linted without
// policies and with 50 policies (--policies), alternating, in one run; it
// reports the median wall time and the peak RSS of each, and their ratios.
//
//	make bench-lint-policies   # go run ./tools/benchlintpolicies [-doc docs/benchmarks.md]
package main
