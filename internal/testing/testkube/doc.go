// Package testkube gives tests a real Kubernetes cluster: kube-apiserver 1.37,
// etcd, kube-controller-manager and a simulated node, all run by bin/testcluster
// (built from the testcluster/ module with `make testcluster`).
//
// A package that talks to a cluster usually shares one:
//
//	func TestMain(m *testing.M) { testkube.Main(m) }
//
//	func TestApply(t *testing.T) {
//		c := testkube.Shared(t)           // started on first use, stopped by Main
//		ns := c.Namespace(t)              // a fresh namespace, deleted after the test
//		kc := c.User(t, "ci", "ci-group") // a narrow identity's kubeconfig
//		...
//	}
//
// Start(t) gives a test a cluster of its own instead. Launch and Stop are the
// same without a testing.TB.
//
// When bin/testcluster is missing, tests are skipped with a hint to run
// `make testcluster`; with CI=true they fail instead. KUBEPLAN_TESTCLUSTER
// names another binary.
package testkube
