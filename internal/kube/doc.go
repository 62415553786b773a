// Package kube connects to a cluster the way kubectl does (kubeconfig,
// context, namespace flags through k8s.io/cli-runtime) and gives the rest of
// kubeplan one client: dynamic access to any resource, a REST mapper from
// discovery, and the namespace to use.
package kube
