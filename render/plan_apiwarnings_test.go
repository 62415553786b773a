package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

// psaWarning is the warning Pod Security admission returns for the
// Deployment of cluster_plan_warnings.txtar, as the server wrote it.
const psaWarning = `would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"])`

// hostileWarning is cluster text meant to break out of a table cell, a
// code span, the terminal and an annotation.
const hostileWarning = "spec.ports[1]: duplicate port | `x` <b>y</b>\x1b[31m\n::error::z"

// apiWarningPlan has a create with the server's Pod Security warning,
// an unchanged Service with a hostile warning among more unchanged objects
// than the text format lists, and a change without warnings.
func apiWarningPlan() *plan.Plan {
	p := &plan.Plan{Version: plan.FormatVersion, Namespace: "store"}
	p.Changes = append(p.Changes,
		plan.Change{Ref: plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "store", Name: "web"}, Action: plan.Create,
			Source: plan.Source{File: "web.yaml", Line: 1, Col: 1}, Diff: "--- /dev/null\n+++ planned\n@@ -0,0 +1,1 @@\n+kind: Deployment\n",
			APIWarnings: []string{psaWarning}},
		plan.Change{Ref: plan.Ref{Version: "v1", Kind: "Service", Namespace: "store", Name: "web"}, Action: plan.Unchanged,
			Source: plan.Source{File: "web.yaml", Line: 30, Col: 1}, APIWarnings: []string{hostileWarning}},
		plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: "settings"}, Action: plan.Update,
			Source: plan.Source{File: "settings.yaml", Line: 1, Col: 1}, Diff: "--- live\n+++ planned\n@@ -1,1 +1,1 @@\n-a: 1\n+a: 2\n"},
	)
	for i := range maxUnchangedLines {
		p.Changes = append(p.Changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: fmt.Sprintf("cm-%02d", i)}, Action: plan.Unchanged})
	}
	return p
}

func TestPlanAPIWarningsGolden(t *testing.T) {
	golden(t, "plan-apiwarnings.text.golden", renderPlan(t, "text", apiWarningPlan(), PlanOptions{}))
	golden(t, "plan-apiwarnings.markdown.golden", renderPlan(t, "markdown", apiWarningPlan(), PlanOptions{}))
	golden(t, "plan-apiwarnings.json.golden", renderPlan(t, "json", apiWarningPlan(), PlanOptions{}))
}

// Each warning is said once per view, on its object, and cluster text
// never breaks out of where it is written.
func TestPlanAPIWarningsOnceAndEscaped(t *testing.T) {
	for _, format := range []string{"text", "markdown"} {
		out := string(renderPlan(t, format, apiWarningPlan(), PlanOptions{}))
		if n := strings.Count(out, "allowPrivilegeEscalation != false"); n != 1 {
			t.Errorf("%s: the Pod Security warning is written %d times, want 1:\n%s", format, n, out)
		}
		if strings.Contains(out, "\x1b") || strings.Contains(out, "\n::error::") {
			t.Errorf("%s: a warning's control characters or lines reach the output:\n%q", format, out)
		}
	}
	text := string(renderPlan(t, "text", apiWarningPlan(), PlanOptions{}))
	if !strings.Contains(text, "  unchanged service/web (web.yaml:30:1)\n    ! the API server warns: spec.ports[1]: duplicate port") {
		t.Errorf("text hides the warning of an unchanged object among many:\n%s", text)
	}
	md := string(renderPlan(t, "markdown", apiWarningPlan(), PlanOptions{}))
	if strings.Contains(md, "<b>") || strings.Contains(md, "| `x` ") {
		t.Errorf("markdown writes cluster text unescaped:\n%s", md)
	}
	if empty := string(renderPlan(t, "markdown", noChangePlan(), PlanOptions{})); strings.Contains(empty, "API server warnings") {
		t.Errorf("a plan without warnings has the section:\n%s", empty)
	}
}

func TestPlanAPIWarningAnnotations(t *testing.T) {
	var got []string
	for _, a := range PlanAnnotations(apiWarningPlan()) {
		if a.Title == "API server warning" {
			got = append(got, a.String())
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d API server warning annotations, want 2 (one per warning):\n%s", len(got), strings.Join(got, "\n"))
	}
	if !strings.HasPrefix(got[0], `::warning file=web.yaml,line=1,title=API server warning::deployment.apps/web: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation`) {
		t.Errorf("first annotation is %s", got[0])
	}
	if !strings.HasPrefix(got[1], "::warning file=web.yaml,line=30,title=API server warning::service/web: spec.ports[1]") {
		t.Errorf("second annotation is %s", got[1])
	}
	for _, a := range got {
		if strings.ContainsAny(a, "\n\x1b") {
			t.Errorf("annotation holds a newline or escape: %q", a)
		}
	}
}
