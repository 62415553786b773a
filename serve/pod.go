package serve

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// Connector connects a project to its cluster: a project naming a
// cluster only through serve's own map (--clusters, KUBEPLAN_CLUSTERS);
// else the command line's kubeconfig, else (in a pod, with none) the
// pod's ServiceAccount (kube.Connector).
func Connector(base *genericclioptions.ConfigFlags, clusters kube.Clusters) run.Connector {
	c := kube.Connector{Base: base, Clusters: clusters, PodFallback: true}
	return func(p project.Project) (*kube.Client, string, error) { return c.Connect(p.ClusterName, p.ClusterAt) }
}

// notifyStateConfigMap is the ConfigMap, in the pod's namespace, where
// serve's notifier keeps its state.
const notifyStateConfigMap = "kubeplan-notify"

// PodState is where the notifier keeps its state (NotifyOptions.Notifier):
// in a pod, with no kubeconfig on the command line, the ConfigMap
// kubeplan-notify of the pod's namespace, so a restart neither repeats nor
// forgets a failure's notification; elsewhere nil (in memory).
func PodState(kubeconfig string) func() (notify.State, error) {
	if !kube.InPod() || kubeconfig != "" {
		return nil
	}
	return func() (notify.State, error) {
		c, err := kube.InCluster()
		if err != nil {
			return nil, err
		}
		return notify.ConfigMapState{Client: c.Dynamic, Namespace: c.Namespace, Name: notifyStateConfigMap}, nil
	}
}
