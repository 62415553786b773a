// Package psadiff holds kubeplan's pod-security lint rule to the API
// server's Pod Security Admission: its integration test generates pod
// variants (variants.go), sends each as a server-side dry-run create of a
// Pod to six namespaces of bin/testcluster labelled enforce=LEVEL and
// enforce-version=VERSION (three levels, two versions), and requires lint,
// given the same Namespaces and Pods, to report an enforce error on
// exactly the pods the server refuses.
package psadiff
