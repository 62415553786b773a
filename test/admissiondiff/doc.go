// Package admissiondiff holds kubeplan's offline ValidatingAdmissionPolicy
// evaluation (lint/admission) to the API server's: its integration test
// installs the policies of policies.yaml on a real kube-apiserver
// (bin/testcluster), sends a generated corpus of objects as server-side
// dry-run creates, and requires, object by object, the same verdict
// offline: denied or admitted, the same denial message, the same warnings.
//
// Its other half is about the policies and bindings themselves: a
// generated corpus of them, valid and invalid (policyobjects.go), and the
// policies of a public library with a planted defect each
// (librarypolicies.go, staged as a public input: internal/testing/publicdata) are sent as server-side dry-run
// creates, and lint, reading them with --policies and linting them, must
// create or refuse each as the server does, naming the same fields.
// testdata/policyobjects.golden records the server's judgements so that
// the comparison runs offline too.
//
// Policies are cluster-scoped, so their names carry a suffix unique to the
// run and every binding selects only the run's namespaces (by a label), so
// parallel tests and runs do not see each other's policies.
package admissiondiff
