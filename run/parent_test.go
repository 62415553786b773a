package run

import (
	"testing"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
)

// A run from a saved plan applies to the plan's ApplySet unless the
// project names one; without a saved plan a project without an ApplySet
// has none.
func TestParentOfSavedPlan(t *testing.T) {
	saved := &plan.Plan{Parent: &plan.Parent{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "gitops-applyset", Namespace: "store"}}}
	o := Options{Saved: saved}
	as, err := o.parent(project.Project{}, "default")
	if err != nil || as == nil || as.String() != "configmap/gitops-applyset" || as.Namespace != "store" {
		t.Fatalf("parent of the saved plan = %+v, %v; want configmap/gitops-applyset in store", as, err)
	}
	as, err = o.parent(project.Project{ApplySet: "secret/other"}, "shop")
	if err != nil || as == nil || as.String() != "secret/other" || as.Namespace != "shop" {
		t.Fatalf("parent named by the project = %+v, %v; want secret/other in shop", as, err)
	}
	if as, err := (&Options{}).parent(project.Project{}, "shop"); as != nil || err != nil {
		t.Fatalf("parent without one = %+v, %v; want none", as, err)
	}
	if _, err := (&Options{}).parent(project.Project{ApplySet: "deployment/x"}, "shop"); err == nil {
		t.Fatal("an ApplySet that is not a ConfigMap or Secret was accepted")
	}
}
