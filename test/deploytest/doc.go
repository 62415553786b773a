// Package deploytest holds the tests of deploy/, the kustomize bundle that
// installs kubeplan serve: the bundle lints clean with kubeplan itself (the
// Prometheus Operator's kinds against their CRDs, vendored in deploy/crds
// and named by deploy/kubeplan.yaml), kubeplan plans and applies it to the real cluster of
// bin/testcluster and plans no change afterwards, the Pod Security
// "restricted" profile admits its pod, and its ServiceAccount can do what a
// reconcile needs in a managed namespace (and keep notify's state in its
// own) and nothing outside it.
//
// The package has no code besides its tests.
package deploytest
