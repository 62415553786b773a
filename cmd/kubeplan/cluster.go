package main

import (
	"path/filepath"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// clusterMap is the runner's map: $KUBEPLAN_CLUSTERS, then --clusters.
func clusterMap(s streams, flags []string) (kube.Clusters, error) {
	return kube.ParseClusters(s.env()(kube.ClustersEnv), flags)
}

// gitCheckout is the root of the git repository holding dir, "" when dir
// is in none: a kubeconfig there may come from a pull request
// (kube.CheckKubeconfigs).
func gitCheckout(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return confine.RepoTop(abs)
}

// connect builds the client (see kube.Connect; no request yet; a
// kubeconfig inside the working directory's git repository is checked)
// and parses --applyset against the namespace.
func connect(f *arguments.Cluster) (*kube.Client, *applyset.Parent, error) {
	c, err := kube.Connect(f.Kube, gitCheckout("."))
	if err != nil {
		return nil, nil, err
	}
	if f.ApplySet == "" {
		return c, nil, nil
	}
	as, err := applyset.ParseParentFlag(f.ApplySet, c.Namespace)
	if err != nil {
		return nil, nil, err
	}
	return c, &as, nil
}

// connector connects to a project's cluster (kube.Connector): for a
// project naming a cluster, the kubeconfig and context the runner maps it
// to in clusters, refusing a name it does not map; else the command
// line's. Kubeconfig files are checked against checkouts.
func connector(f *arguments.Cluster, clusters kube.Clusters, checkouts ...string) run.Connector {
	c := kube.Connector{Base: f.Kube, Clusters: clusters, Checkouts: checkouts}
	return func(p project.Project) (*kube.Client, string, error) { return c.Connect(p.ClusterName, p.ClusterAt) }
}

// applySetName is "configmap/NAME", or "" without an ApplySet.
func applySetName(as *applyset.Parent) string {
	if as == nil {
		return ""
	}
	return as.String()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
