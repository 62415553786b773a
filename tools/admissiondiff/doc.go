// Package admissiondiff holds kubeplan's offline ValidatingAdmissionPolicy
// evaluation (lint/admission) to the API server's: its integration test
// installs the policies of policies.yaml on a real kube-apiserver
// (bin/testcluster), sends a generated corpus of objects as server-side
// dry-run creates, and requires, object by object, the same verdict
// offline: denied or admitted, the same denial message, the same warnings.
//
// Policies are cluster-scoped, so their names carry a suffix unique to the
// run and every binding selects only the run's namespaces (by a label), so
// parallel tests and runs do not see each other's policies.
package admissiondiff
