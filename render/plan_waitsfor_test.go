package render

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

// TestPlanWaitsFor: an object that waits for a Namespace a dependency
// creates says so in text, markdown and JSON, not that it waits for a
// CustomResourceDefinition; a custom resource says its CRD; a change of a
// plan saved without WaitsFor still reads as waiting for its CRD.
func TestPlanWaitsFor(t *testing.T) {
	p := &plan.Plan{Namespace: "team-a", Changes: []plan.Change{
		{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "team-a", Name: "settings"},
			Action: plan.Create, Source: plan.Source{File: "apps/db/settings.yaml", Line: 1, Col: 1}, AfterCRD: true, WaitsFor: "Namespace team-a"},
		{Ref: plan.Ref{Group: "example.com", Version: "v1", Kind: "Backup", Resource: "backups", Namespace: "team-a", Name: "nightly"},
			Action: plan.Create, Source: plan.Source{File: "apps/db/backup.yaml", Line: 1, Col: 1}, AfterCRD: true, WaitsFor: plan.WaitsForCRD + " and Namespace team-a"},
		{Ref: plan.Ref{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespace: "team-a", Name: "old"},
			Action: plan.Create, Source: plan.Source{File: "apps/db/widget.yaml", Line: 1, Col: 1}, AfterCRD: true},
	}}
	text := string(renderPlan(t, "text", p, PlanOptions{}))
	for _, want := range []string{
		"+ create configmap/settings (apps/db/settings.yaml:1:1) (will be created after Namespace team-a)\n",
		"+ create backup.example.com/nightly (apps/db/backup.yaml:1:1) (will be created after its CustomResourceDefinition and Namespace team-a)\n",
		"+ create widget.example.com/old (apps/db/widget.yaml:1:1) (will be created after its CustomResourceDefinition)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text has no %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "configmap/settings (apps/db/settings.yaml:1:1) (will be created after its") {
		t.Errorf("the ConfigMap is said to wait for a CRD:\n%s", text)
	}
	md := string(renderPlan(t, "markdown", p, PlanOptions{}))
	for _, want := range []string{"➕ create (after Namespace team-a) | `configmap/settings`", "➕ create (after its CRD and Namespace team-a)", "➕ create (after its CRD) | `widget.example.com/old`"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown has no %q:\n%s", want, md)
		}
	}
	js := string(renderPlan(t, "json", p, PlanOptions{}))
	if !strings.Contains(js, `"waitsFor": "Namespace team-a"`) || !strings.Contains(js, `"waitsFor": "its CustomResourceDefinition and Namespace team-a"`) {
		t.Errorf("json has no waitsFor:\n%s", js)
	}
}
