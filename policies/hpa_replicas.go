package policies

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/hpa"
	"github.com/kubeplan/kubeplan/manifest"
)

var hpaReplicas = Rule{
	ID:          "hpa-replicas",
	Severity:    SeverityWarning,
	Description: "a Deployment/StatefulSet scaled by a HorizontalPodAutoscaler in the set must not set spec.replicas",
	Check:       checkHPAReplicas,
	SetWide:     true,
}

func checkHPAReplicas(objs []*manifest.Object, opts Options) []Violation {
	ns := func(o *manifest.Object) string {
		if o.Namespace == "" {
			return opts.Namespace
		}
		return o.Namespace
	}
	scaledBy := map[hpa.Workload]*manifest.Object{}
	for _, o := range objs {
		if o == nil || !hpa.IsAutoscaler(o.APIVersion, o.Kind) {
			continue
		}
		if w, ok := hpa.Target(o.Content, ns(o)); ok && scaledBy[w] == nil {
			scaledBy[w] = o
		}
	}
	if len(scaledBy) == 0 {
		return nil
	}
	var out []Violation
	for _, o := range objs {
		if o == nil || !hpa.Scalable(o.APIVersion, o.Kind) || !setsReplicas(o) {
			continue
		}
		h := scaledBy[hpa.Workload{Kind: o.Kind, Namespace: ns(o), Name: o.Name}]
		if h == nil {
			continue
		}
		out = append(out, Violation{
			Object: o,
			Path:   []string{"spec", "replicas"},
			Message: fmt.Sprintf("spec.replicas is owned by HorizontalPodAutoscaler %s (%s:%d); remove the field from git, kubeplan leaves it to the autoscaler",
				h.Name, h.File, h.Start().Line),
		})
	}
	return out
}

// setsReplicas reads the content, not the source tree, so that objects
// loaded without positions stay that way.
func setsReplicas(o *manifest.Object) bool {
	_, ok := o.Get("spec", "replicas")
	return ok
}
