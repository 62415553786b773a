package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestPlanAnnotations(t *testing.T) {
	var got []string
	for _, a := range PlanAnnotations(planFixture()) {
		got = append(got, a.String())
	}
	want := []string{
		"::warning file=manifests/readme.yaml,line=1,title=drift::configmap/readme was changed in the cluster, and applying takes it back:%0Adata.motd (set by kubectl-edit)",
		"::warning file=manifests/deployment.yaml,line=1,title=drift::deployment.apps/web was changed in the cluster, and applying takes it back:%0Aspec.replicas (set by kubectl-scale)",
		"::warning file=manifests/api.yaml,line=1,title=replace::applying deletes service/api and creates it again: spec.clusterIPs[0] is immutable",
		"::warning title=prune::applying deletes configmap/settings from the cluster: it is no longer in the manifests",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Drift values never appear: they may be Secret values.
	for _, a := range got {
		if strings.Contains(a, "red") || strings.Contains(a, "hello") {
			t.Errorf("annotation shows a value: %s", a)
		}
	}
	if len(PlanAnnotations(noChangePlan())) != 0 {
		t.Error("a plan without drift or prunes has annotations")
	}
}

func TestPlanAnnotationsCap(t *testing.T) {
	p := &plan.Plan{Namespace: "store"}
	for i := range 14 {
		p.Changes = append(p.Changes, plan.Change{Action: plan.Prune, Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: fmt.Sprintf("cm-%02d", i)}})
	}
	as := PlanAnnotations(p)
	if len(as) != 11 || as[9].Level != "warning" || !strings.Contains(as[9].Message, "cm-09") {
		t.Fatalf("%d annotations: %+v", len(as), as)
	}
	if want := "::notice title=kubeplan plan::4 more guard, drift, replace and prune warnings were not annotated (GitHub shows 10 per step); the job summary has the whole plan."; as[10].String() != want {
		t.Errorf("notice %q, want %q", as[10].String(), want)
	}
}
