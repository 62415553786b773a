package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

// rollPlan updates a ConfigMap and a Secret, and two Deployments: web,
// whose pods roll for both, and api, updated for its own sake.
func rollPlan() *plan.Plan {
	return &plan.Plan{Version: plan.FormatVersion, Namespace: "shop", Changes: []plan.Change{
		{Ref: plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Name: "api"}, Action: plan.Update, Diff: "--- live\n+++ planned\n"},
		{Ref: plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Name: "web"}, Action: plan.Update, Diff: "--- live\n+++ planned\n",
			RollsFor: []string{"configmap/settings", "secret/db"}},
		{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "settings"}, Action: plan.Update},
		{Ref: plan.Ref{Version: "v1", Kind: "Secret", Name: "db"}, Action: plan.Update},
	}}
}

func TestPlanRollReason(t *testing.T) {
	text := string(renderPlan(t, "text", rollPlan(), PlanOptions{}))
	if want := "\nRolls (the config their pods read changed):\n  deployment.apps/web will roll: configmap/settings and secret/db changed\n"; !strings.Contains(text, want) {
		t.Errorf("text lacks %q:\n%s", want, text)
	}
	if n := strings.Count(text, "will roll"); n != 1 {
		t.Errorf("%d roll lines, want 1:\n%s", n, text)
	}

	md := string(renderPlan(t, "markdown", rollPlan(), PlanOptions{}))
	if want := "| 🔄 update, 🔁 will roll: configmap/settings and secret/db changed | `deployment.apps/web` |"; !strings.Contains(md, want) {
		t.Errorf("markdown lacks %q:\n%s", want, md)
	}
	if strings.Contains(md, "update, 🔁 will roll: configmap/settings and secret/db changed | `deployment.apps/api`") {
		t.Errorf("api rolls in the markdown:\n%s", md)
	}

	var doc struct {
		Changes []struct {
			Ref      plan.Ref `json:"ref"`
			RollsFor []string `json:"rollsFor"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(renderPlan(t, "json", rollPlan(), PlanOptions{}), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range doc.Changes {
		got[c.Ref.String()] = strings.Join(c.RollsFor, ",")
	}
	if got["deployment.apps/web"] != "configmap/settings,secret/db" || got["deployment.apps/api"] != "" {
		t.Errorf("json rollsFor: %v", got)
	}
}
