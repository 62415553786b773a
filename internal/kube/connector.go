package kube

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// Connector connects to the cluster a project names (cluster: in
// kubeplan.yaml) or, for a project naming none, the command line's.
type Connector struct {
	// Base are the command line's connection flags.
	Base *genericclioptions.ConfigFlags
	// Clusters is the runner's map of cluster names (--clusters,
	// KUBEPLAN_CLUSTERS): a name it does not hold is refused before
	// anything is read or connected.
	Clusters Clusters
	// Checkouts are the trees a kubeconfig file is checked against
	// (CheckKubeconfigs).
	Checkouts []string
	// PodFallback connects a project naming no cluster, when Base names
	// no kubeconfig and no server and kubeplan runs in a pod, as the
	// pod's ServiceAccount (serve).
	PodFallback bool
}

// Connect builds the client of cluster name (set at where in
// kubeplan.yaml; "" for the command line's) and the label that names the
// cluster in reports: name, else the kubeconfig context the flags select.
// On an error the label is name.
func (c Connector) Connect(name, where string) (*Client, string, error) {
	if c.PodFallback && name == "" && deref(c.Base.KubeConfig) == "" && deref(c.Base.APIServer) == "" && InPod() {
		cl, err := InCluster()
		return cl, "", err
	}
	kf := ForCluster(c.Base, "", "")
	if name != "" {
		var err error
		if kf, err = c.Clusters.Flags(c.Base, name, where); err != nil {
			return nil, name, err
		}
	}
	cl, err := Connect(kf, c.Checkouts...)
	if err != nil {
		return nil, name, err
	}
	if name != "" {
		return cl, name, nil
	}
	return cl, ContextName(kf), nil
}
