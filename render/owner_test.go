package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
)

// ownerPlan takes over an object of another set and releases a protected
// member that left the manifests.
func ownerPlan() *plan.Plan {
	cm := func(name string) plan.Ref {
		return plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "store", Name: name}
	}
	return &plan.Plan{Version: plan.FormatVersion, Namespace: "store", FieldManager: "kubeplan", Changes: []plan.Change{
		{Ref: cm("shared"), Action: plan.Update, Owner: "ApplySet configmap/other-set", Source: plan.Source{File: "shared.yaml", Line: 1, Col: 1},
			Diff: "--- live\n+++ planned\n@@ -1 +1 @@\n-x\n+y\n"},
		{Ref: cm("kept"), Action: plan.Release, Reason: plan.ReleaseReason},
	}}
}

func TestPlanOwnerAndRelease(t *testing.T) {
	p := ownerPlan()
	text := string(renderPlan(t, "text", p, PlanOptions{}))
	for _, want := range []string{
		"~ update configmap/shared (shared.yaml:1:1)\n    ! owned by ApplySet configmap/other-set\n    --- live\n",
		"\n~ release configmap/kept (prune disabled: kept, no longer managed)\n",
		"\nPlan: 0 to add, 1 to change, 0 to prune, 1 to release, 0 unchanged.\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	md := string(renderPlan(t, "markdown", p, PlanOptions{}))
	for _, want := range []string{
		"| 🔄 update, ⚠️ owned by ApplySet configmap/other-set | `configmap/shared` |",
		"| 🏷️ release (prune disabled: kept, no longer managed) | `configmap/kept` |",
		"**takes over 1 object owned by another ApplySet or tool** (needs --adopt; see Changes)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	var doc struct {
		Summary map[string]int `json:"summary"`
		Changes []struct {
			Action string `json:"action"`
			Owner  string `json:"owner"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(renderPlan(t, "json", p, PlanOptions{}), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary["release"] != 1 || len(doc.Changes) != 2 || doc.Changes[0].Owner != "ApplySet configmap/other-set" || doc.Changes[1].Action != "release" {
		t.Errorf("json: %+v", doc)
	}
}

func TestApplyTextSkippedAndReleased(t *testing.T) {
	res := &apply.Result{Objects: []apply.ObjectResult{
		{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "shared"}, Outcome: apply.Skipped, Detail: "now belongs to ApplySet applyset-x-v1"},
		{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "kept"}, Outcome: apply.Released},
	}}
	var b bytes.Buffer
	if err := Apply(&b, "text", ApplyReport{Result: res}); err != nil {
		t.Fatal(err)
	}
	want := "configmap/shared skipped (now belongs to ApplySet applyset-x-v1)\n" +
		"configmap/kept kept, no longer managed (prune disabled)\n" +
		"Apply: 0 created, 0 configured, 0 pruned, 1 released, 1 skipped, 0 unchanged.\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := ApplyMarkdown(&b, ApplyReport{Result: res}, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| `configmap/shared` | ⏭️ skipped (now belongs to ApplySet applyset-x-v1) |\n",
		"| `configmap/kept` | 🏷️ kept, no longer managed (prune disabled) |\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}
}

func TestPlanAnnotationsOwner(t *testing.T) {
	as := PlanAnnotations(ownerPlan())
	want := "::warning file=shared.yaml,line=1,title=owner::configmap/shared is owned by ApplySet configmap/other-set; apply takes it over only with --adopt"
	if len(as) != 1 || as[0].String() != want {
		t.Errorf("annotations %v, want [%s]", as, want)
	}
}
