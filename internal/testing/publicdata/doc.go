// Package publicdata finds the public inputs the differential suites
// judge kubeplan on (charts, SOPS data, policy libraries fetched from
// public repositories): they are not committed to this repository, whose
// rules keep what is fetched from public repositories out of its commits.
// They are staged in a directory of their own, $KUBEPLAN_PUBLIC, else
// shared/public beside the checkout; docs/conformance.md says how.
package publicdata
