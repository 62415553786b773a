package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestPlanTextGolden(t *testing.T) {
	golden(t, "plan-mixed.text.golden", renderPlan(t, "text", planFixture(), PlanOptions{}))
	golden(t, "plan-color.text.golden", renderPlan(t, "text", planFixture(), PlanOptions{Color: true}))
	golden(t, "plan-nochange.text.golden", renderPlan(t, "text", noChangePlan(), PlanOptions{}))
	golden(t, "plan-empty.text.golden", renderPlan(t, "text", emptyPlan(), PlanOptions{}))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestPlanTextShape(t *testing.T) {
	for _, p := range []*plan.Plan{planFixture(), noChangePlan(), emptyPlan()} {
		out := string(renderPlan(t, "text", p, PlanOptions{}))
		if got, want := lastLine(out), p.Summary().String(); got != want {
			t.Errorf("last line = %q, want %q", got, want)
		}
		noChanges := strings.Contains(out, "\nNo changes. The cluster matches the manifests.\n"+p.Summary().String()+"\n") ||
			strings.HasPrefix(out, "No changes.")
		if noChanges == p.HasChanges() {
			t.Errorf("HasChanges = %v, but the no-changes line present = %v:\n%s", p.HasChanges(), noChanges, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("escape character without opts.Color:\n%q", out)
		}
	}
	out := string(renderPlan(t, "text", planFixture(), PlanOptions{}))
	for _, want := range []string{
		"+ create secret/db-credentials (manifests/secret.yaml:1:1)\n    --- /dev/null\n",
		"+ create widget.example.com/w1 (manifests/widget.yaml:9:1) (will be created after its CustomResourceDefinition)\n",
		"~ update deployment.apps/web (manifests/deployment.yaml:1:1)\n",
		"\n    -  replicas: 6\n    +  replicas: 3\n",
		"\n- prune configmap/settings\n",
		"\n  unchanged serviceaccount/deployer in other (manifests/rbac.yaml:1:1)\n",
		"\nDrift (changed in the cluster, will be taken back):\n",
		"\n  deployment.apps/web spec.replicas is 6, set by kubectl-scale; git says 3\n",
		`configmap/readme data.motd is a|b ` + "`c`" + ` <d> \x1b[31mred, set by kubectl-edit; git says hello`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

var ansiCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestPlanTextColor(t *testing.T) {
	out := string(renderPlan(t, "text", planFixture(), PlanOptions{Color: true}))
	if plain := ansiCode.ReplaceAllString(out, ""); plain != string(renderPlan(t, "text", planFixture(), PlanOptions{})) {
		t.Errorf("colour changed more than escape codes:\n%s", plain)
	}
	for _, want := range []string{
		ansiGreen + "+ create" + ansiReset + " secret/db-credentials",
		ansiYellow + "~ update" + ansiReset + " deployment.apps/web",
		ansiDel + "- prune" + ansiReset + " configmap/settings",
		"    " + ansiGreen + "+  replicas: 3" + ansiReset + "\n",
		"    " + ansiDel + "-  replicas: 6" + ansiReset + "\n",
		"    " + ansiCyan + "@@ -5,7 +5,7 @@" + ansiReset + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
	if last := lastLine(out); last != planFixture().Summary().String() {
		t.Errorf("coloured last line = %q", last)
	}
}

func TestPlanTextUnchanged(t *testing.T) {
	for _, n := range []int{maxUnchangedLines, maxUnchangedLines + 1} {
		p := &plan.Plan{Namespace: "store"}
		for i := range n {
			p.Changes = append(p.Changes, plan.Change{Action: plan.Unchanged,
				Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: fmt.Sprintf("cm-%02d", i)}})
		}
		out := string(renderPlan(t, "text", p, PlanOptions{}))
		lines := strings.Count(out, "  unchanged configmap/")
		count := strings.Contains(out, fmt.Sprintf("\n  (%d objects unchanged)\n", n)) || strings.HasPrefix(out, fmt.Sprintf("  (%d objects unchanged)\n", n))
		if n <= maxUnchangedLines && (lines != n || count) || n > maxUnchangedLines && (lines != 0 || !count) {
			t.Errorf("%d unchanged: %d lines, count line %v:\n%s", n, lines, count, out)
		}
	}
}

// A Helm hook is named in its header; a skipped one is unchanged with its reason.
func TestPlanTextHooks(t *testing.T) {
	p := &plan.Plan{Namespace: "shop", Changes: []plan.Change{
		{Ref: plan.Ref{Group: "batch", Version: "v1", Kind: "Job", Name: "migrate"}, Action: plan.Create, Hook: "pre-install,pre-upgrade"},
		{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "smoke"}, Action: plan.Unchanged, Hook: "test", Reason: "skipped hook: test, not run on install"},
	}}
	out := string(renderPlan(t, "text", p, PlanOptions{}))
	for _, want := range []string{
		"+ create job.batch/migrate (pre-install,pre-upgrade hook)\n",
		"  unchanged configmap/smoke (skipped hook: test, not run on install)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}
