package arguments

import (
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// Cluster is what plan and apply share about the cluster side: the
// connection (kubectl's flags), the ApplySet and how to plan.
type Cluster struct {
	Kube            *genericclioptions.ConfigFlags
	ApplySet        string
	FieldManager    string
	Adopt           bool
	OtherNamespaces bool
	StrictRefs      bool
	Concurrency     int
	ShowDefaults    bool
	// Clusters are the --clusters entries: the runner's map from the
	// cluster names of kubeplan.yaml to kubeconfigs (kube.ParseClusters).
	Clusters []string
}

// Bind adds kubectl's connection flags and the plan flags.
func (f *Cluster) Bind(fl *pflag.FlagSet) {
	f.Kube = kube.Flags()
	f.Kube.AddFlags(fl)
	fl.StringVar(&f.ApplySet, "applyset", "", "the ApplySet the manifests belong to, as configmap/NAME or secret/NAME: enables pruning and the prune preview")
	fl.StringVar(&f.FieldManager, "field-manager", "kubeplan", "server-side apply field manager")
	fl.BoolVar(&f.Adopt, "adopt", false, "take over what others own: an ApplySet made by kubectl (its members become prunable), and objects of another ApplySet, a Helm release, Flux or Argo CD")
	fl.BoolVar(&f.OtherNamespaces, "allow-other-namespaces", false, "allow objects that name a namespace other than -n (by default an error)")
	fl.BoolVar(&f.StrictRefs, "strict-refs", false, "make a pod template's reference to a Secret, ConfigMap, ServiceAccount or PVC that neither the manifests nor the cluster has an error (by default a warning)")
	fl.IntVar(&f.Concurrency, "concurrency", 16, "requests in flight")
	fl.BoolVar(&f.ShowDefaults, "show-defaults", false, "show a created object as the server would store it, defaults included (default: as written)")
	BindClusters(fl, &f.Clusters)
}

// BindClusters adds --clusters, the runner's allow-list of cluster names.
func BindClusters(fl *pflag.FlagSet, dst *[]string) {
	fl.StringArrayVar(dst, "clusters", nil, "map a cluster name of kubeplan.yaml (cluster:) to credentials: NAME (the kubeconfig's context NAME), NAME=KUBECONFIG "+
		"(that file, its current context), NAME=#CONTEXT or NAME=KUBECONFIG#CONTEXT; repeatable or comma-separated, added to $"+kube.ClustersEnv+
		". A project whose cluster is not mapped is refused")
}

// PlanOptions are the plan settings of the flags for namespace and the
// ApplySet as (nil: none), at revision.
func (f *Cluster) PlanOptions(namespace string, as *applyset.Parent, revision string) plan.Options {
	return plan.Options{Namespace: namespace, FieldManager: f.FieldManager, ApplySet: as, Adopt: f.Adopt,
		Concurrency: f.Concurrency, AllowOtherNamespaces: f.OtherNamespaces, StrictRefs: f.StrictRefs, Revision: revision, ShowDefaults: f.ShowDefaults}
}

// Token is the bearer token of --token, "" when none: GitHub mode masks it.
func (f *Cluster) Token() string { return deref(f.Kube.BearerToken) }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
