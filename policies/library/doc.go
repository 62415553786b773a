// Package library holds kubeplan's catalog of opt-in checks written as
// ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1), one
// directory each, for users to copy: policy.yaml (the policy, its binding and
// any param object), resources.yaml (objects that pass, fail and are not
// matched) and kubeplan-test.yaml (the verdict for each of them, read by
// `kubeplan policy test`).
//
// The package has no code of its own, only the tests that prove the
// catalog: every policy.yaml is a well-formed policy, every fixture has a
// verdict, and every verdict (and denial message) is what a real
// kube-apiserver decides (library_integration_test.go, on bin/testcluster).
package library
