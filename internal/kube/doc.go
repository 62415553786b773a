// Package kube connects to a cluster the way kubectl does (kubeconfig,
// context, namespace flags through k8s.io/cli-runtime) and gives the rest of
// kubeplan one client: dynamic access to any resource, a REST mapper from
// discovery, and the namespace to use. Ref names one object in a cluster
// (the plan's changes, what health waits on).
//
// Credentials come from the runner only: Clusters is the runner's map from
// the cluster names kubeplan.yaml uses to kubeconfigs and contexts
// (--clusters, KUBEPLAN_CLUSTERS), the run's allow-list; a name it lacks is
// a NotMappedError before anything is read. Connect runs CheckKubeconfigs
// before client-go reads a kubeconfig: regular files of bounded size only,
// and none inside a checkout that git tracks or that runs a command or
// reads a file.
package kube
