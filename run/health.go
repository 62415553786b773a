package run

import (
	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/workspace"
)

// checkHealthCRDs checks the fields kubeplan.yaml's health rules select
// against the CRDs of their kinds among the set's objects and the files
// crdPaths names (the config's crds: and --crds; healthexpr's
// Set.CheckCRDs): a field the CRD does not have is an error at the rule's
// file:line:col, before anything is sent. Without health rules nothing
// is read.
func checkHealthCRDs(w *workspace.Workspace, objs []*manifest.Object, crdPaths []string) error {
	if w == nil || w.Config == nil || len(w.Config.HealthRules) == 0 {
		return nil
	}
	var crds []map[string]any
	add := func(objs []*manifest.Object) {
		for _, o := range objs {
			if o.Kind == "CustomResourceDefinition" && o.Group() == "apiextensions.k8s.io" {
				crds = append(crds, o.Content)
			}
		}
	}
	add(objs)
	if len(crdPaths) > 0 {
		// lint read them already and reported what is wrong with them
		if res, err := loader.Load(crdPaths, loader.Options{}); err == nil {
			add(res.Objects)
		}
	}
	if len(crds) == 0 {
		return nil
	}
	return w.Config.Health.CheckCRDs(crds)
}

// HealthRules are the health rules in CEL of the run's kubeplan.yaml
// (health:); nil without one: the built-in rules judge alone.
func (o *Options) HealthRules() *healthexpr.Set {
	if w := o.Workspace; w != nil && w.Config != nil {
		return w.Config.Health
	}
	return nil
}
