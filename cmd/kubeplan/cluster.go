package main

import (
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// clusterFlags are what plan and apply share about the cluster side: the
// connection (kubectl's flags), the ApplySet and how to plan.
type clusterFlags struct {
	kube            *genericclioptions.ConfigFlags
	applySet        string
	fieldManager    string
	adopt           bool
	otherNamespaces bool
	strictRefs      bool
	concurrency     int
	showDefaults    bool
	// clusters are the --clusters entries: the runner's map from the
	// cluster names of kubeplan.yaml to kubeconfigs (kube.ParseClusters).
	clusters []string
}

func (f *clusterFlags) add(cmd *cobra.Command) {
	f.kube = kube.Flags()
	f.kube.AddFlags(cmd.Flags())
	fl := cmd.Flags()
	fl.StringVar(&f.applySet, "applyset", "", "the ApplySet the manifests belong to, as configmap/NAME or secret/NAME: enables pruning and the prune preview")
	fl.StringVar(&f.fieldManager, "field-manager", "kubeplan", "server-side apply field manager")
	fl.BoolVar(&f.adopt, "adopt", false, "take over what others own: an ApplySet made by kubectl (its members become prunable), and objects of another ApplySet, a Helm release, Flux or Argo CD")
	fl.BoolVar(&f.otherNamespaces, "allow-other-namespaces", false, "allow objects that name a namespace other than -n (by default an error)")
	fl.BoolVar(&f.strictRefs, "strict-refs", false, "make a pod template's reference to a Secret, ConfigMap, ServiceAccount or PVC that neither the manifests nor the cluster has an error (by default a warning)")
	fl.IntVar(&f.concurrency, "concurrency", 16, "requests in flight")
	fl.BoolVar(&f.showDefaults, "show-defaults", false, "show a created object as the server would store it, defaults included (default: as written)")
	addClustersFlag(fl, &f.clusters)
}

// addClustersFlag adds --clusters, the runner's allow-list of cluster names.
func addClustersFlag(fl *pflag.FlagSet, dst *[]string) {
	fl.StringArrayVar(dst, "clusters", nil, "map a cluster name of kubeplan.yaml (cluster:) to credentials: NAME (the kubeconfig's context NAME), NAME=KUBECONFIG "+
		"(that file, its current context), NAME=#CONTEXT or NAME=KUBECONFIG#CONTEXT; repeatable or comma-separated, added to $"+kube.ClustersEnv+
		". A project whose cluster is not mapped is refused")
}

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
func (f *clusterFlags) connect() (*kube.Client, *applyset.Parent, error) {
	c, err := kube.Connect(f.kube, gitCheckout("."))
	if err != nil {
		return nil, nil, err
	}
	if f.applySet == "" {
		return c, nil, nil
	}
	as, err := applyset.ParseParentFlag(f.applySet, c.Namespace)
	if err != nil {
		return nil, nil, err
	}
	return c, &as, nil
}

// lintNamespace is the namespace lint's namespace-mismatch checks against:
// none when other namespaces are allowed.
func (f *clusterFlags) lintNamespace(c *kube.Client) string {
	if f.otherNamespaces {
		return ""
	}
	return c.Namespace
}

func (f *clusterFlags) planOptions(c *kube.Client, as *applyset.Parent, revision string, progress func(done, total int)) plan.Options {
	return plan.Options{Namespace: c.Namespace, FieldManager: f.fieldManager, ApplySet: as, Adopt: f.adopt,
		Concurrency: f.concurrency, AllowOtherNamespaces: f.otherNamespaces, StrictRefs: f.strictRefs, Revision: revision, ShowDefaults: f.showDefaults,
		Progress: progress}
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
