package serve

import (
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

var webRef = plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "shop", Name: "web"}

// repairRun is a run of project shop that took back field of web, set
// by manager ("" for a run that took nothing back).
func repairRun(field, manager string) run.ProjectReport {
	c := plan.Change{Ref: webRef, Action: plan.Update}
	if field != "" {
		c.Drift = []plan.Drift{{Field: field, Manager: manager, Live: "5", Want: "2"}}
	}
	return run.ProjectReport{Project: project.Project{Name: "shop"}, Plan: &plan.Plan{Changes: []plan.Change{c}},
		Result: &apply.Result{Objects: []apply.ObjectResult{{Ref: webRef, Outcome: apply.Configured}}}}
}

// Three runs in a row that take back a field the same manager set make
// one hint, once; a run between that does not, or another manager,
// starts the count again.
func TestYieldWatch(t *testing.T) {
	w := newYieldWatch()
	steps := []struct {
		pr    run.ProjectReport
		hints int
	}{
		{repairRun(".spec.replicas", "other"), 0},
		{repairRun(".spec.replicas", "other"), 0},
		{repairRun("", ""), 0}, // not taken back: the count starts again
		{repairRun(".spec.replicas", "other"), 0},
		{repairRun(".spec.replicas", "other"), 0},
		{repairRun(".spec.replicas", "kubectl-edit"), 0}, // another manager
		{repairRun(".spec.replicas", "other"), 0},
		{repairRun(".spec.replicas", "other"), 0},
		{repairRun(".spec.replicas", "other"), 1},
		{repairRun(".spec.replicas", "other"), 0}, // told once
	}
	for i, s := range steps {
		got := w.observe(s.pr)
		if len(got) != s.hints {
			t.Fatalf("run %d: %d hints, want %d: %+v", i+1, len(got), s.hints, got)
		}
		if len(got) == 1 {
			h := got[0]
			if h.Object != "deployment.apps/web" || h.Manager != "other" || h.Rule != `yield: [{kind: Deployment, group: apps, paths: ["spec.replicas"]}]` {
				t.Errorf("hint: %+v", h)
			}
		}
	}
	// A run that failed took nothing back.
	failed := repairRun(".spec.replicas", "x")
	failed.Err = errorString("boom")
	for range YieldRuns {
		if got := w.observe(failed); len(got) != 0 {
			t.Errorf("a failed run made hints: %+v", got)
		}
	}
}

// The suggested rule is a kubeplan.yaml rule that parses, and its path
// names the field the API server named.
func TestYieldRuleParses(t *testing.T) {
	for field, want := range map[string]string{
		".spec.replicas": "spec.replicas",
		`.spec.template.spec.containers[name="web"].resources.limits.cpu`:         "spec.template.spec.containers[name=web].resources.limits.cpu",
		`.spec.ports[port=80,protocol="TCP"].targetPort`:                          "spec.ports[*].targetPort",
		`.metadata.annotations.example.com/x`:                                     `metadata.annotations["example.com/x"]`,
		`.data.service-ca.crt`:                                                    `data["service-ca.crt"]`,
		`.spec.template.spec.containers[name="a.b"].image`:                        `spec.template.spec.containers[name="a.b"].image`,
		`.webhooks[name="v.example.com"].clientConfig.caBundle`:                   `webhooks[name="v.example.com"].clientConfig.caBundle`,
		`.spec.template.spec.containers[name="web"].args[="--x"]`:                 "spec.template.spec.containers[name=web].args[*]",
		`.spec.template.spec.containers[name="web"].env[name="A"].valueFrom`:      "spec.template.spec.containers[name=web].env[name=A].valueFrom",
		`.spec.template.spec.containers[name="web"].ports[containerPort=80]`:      "spec.template.spec.containers[name=web].ports[containerPort=80]",
		`.spec.template.spec.containers[name="web"].volumeMounts[mountPath="/x"]`: "spec.template.spec.containers[name=web].volumeMounts[mountPath=/x]",
	} {
		if got := yieldPathOf(field).String(); got != want {
			t.Errorf("%s: %s, want %s", field, got, want)
			continue
		}
		rule := yieldRule(webRef, field)
		c, err := config.Parse("kubeplan.yaml", []byte(rule+"\n"))
		if err != nil {
			t.Errorf("%s: the rule %s does not parse: %v", field, rule, err)
			continue
		}
		if len(c.Yield) != 1 || c.Yield[0].Kind != "Deployment" || c.Yield[0].Group != "apps" || c.Yield[0].Raw[0] != want {
			t.Errorf("%s: parsed %+v", field, c.Yield)
		}
	}
}
