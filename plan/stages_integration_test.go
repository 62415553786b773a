package plan_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

func stagePlan(t *testing.T, files map[string]string) (*plan.Plan, error) {
	t.Helper()
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	objs := load(t, writeSet(t, files))
	as := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: ns}
	return plan.Make(context.Background(), client(t, narrow(t, c, ns), ns), objs, plan.Options{Namespace: ns, ApplySet: &as})
}

func stagesOf(p *plan.Plan) string {
	var out []string
	for _, s := range p.Stages {
		var ms []string
		for _, m := range s.Members {
			ms = append(ms, m.Name)
		}
		out = append(out, s.Name+": "+strings.Join(ms, ","))
	}
	return strings.Join(out, " | ")
}

// Helm hooks are stages: their weights are waves; a hook of a pre and a
// post event is a member of both stages; a hook that does not run on an
// install (pre-upgrade) is in none. Without ordering annotations a plan
// has no stages.
func TestIntegrationStagesHelmHooks(t *testing.T) {
	cm := func(name, ann string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  annotations:\n" + ann + "data: {k: v}\n---\n"
	}
	p, err := stagePlan(t, map[string]string{"hooks.yaml": cm("early", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: \"-5\"\n") +
		cm("both", "    helm.sh/hook: pre-install,post-install\n") +
		cm("upgrade-only", "    helm.sh/hook: pre-upgrade\n") +
		cm("after", "    helm.sh/hook: post-install\n") +
		cm("plain", "    note: none\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stagesOf(p), "PreSync hooks, wave -5: early | PreSync hooks: both | wave 0: plain | PostSync hooks: both,after"; got != want {
		t.Errorf("stages\n got %s\nwant %s", got, want)
	}
	if ch := find(p, "configmap/upgrade-only"); ch == nil || ch.Action != plan.Unchanged || ch.Stage != "" {
		t.Errorf("pre-upgrade hook on an install: %+v", ch)
	}
	if ch := find(p, "configmap/both"); ch == nil || ch.Stage != "PreSync hooks" {
		t.Errorf("hook of two stages: %+v", ch)
	}
	for _, s := range p.Stages {
		if s.Name == "PreSync hooks, wave -5" && strings.Join(s.WaitsFor, ",") != "configmap/early ready" {
			t.Errorf("waits for %q", s.WaitsFor)
		}
	}
	plain, err := stagePlan(t, map[string]string{"cm.yaml": cm("plain", "    note: none\n")})
	if err != nil || plain.Stages != nil || find(plain, "configmap/plain").Stage != "" {
		t.Errorf("a plan without ordering annotations has stages: %v %+v", err, plain)
	}
}

// Argo CD's Skip and SyncFail are planned unchanged; an order that cannot
// be followed fails the plan at the annotation's file:line:col.
func TestIntegrationStagesArgoAndProblems(t *testing.T) {
	cm := func(name, ann string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  annotations:\n" + ann + "data: {k: v}\n---\n"
	}
	p, err := stagePlan(t, map[string]string{"app.yaml": cm("skipped", "    argocd.argoproj.io/hook: Skip\n") +
		cm("onfail", "    argocd.argoproj.io/hook: SyncFail\n") +
		cm("late", "    argocd.argoproj.io/sync-wave: \"2\"\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stagesOf(p), "wave 2: late | SyncFail hooks: onfail"; got != want {
		t.Errorf("stages %s, want %s", got, want)
	}
	if !p.Stages[1].OnFail || p.Stages[0].OnFail {
		t.Errorf("OnFail: %+v", p.Stages)
	}
	for _, name := range []string{"skipped", "onfail"} {
		if ch := find(p, "configmap/"+name); ch == nil || ch.Action != plan.Unchanged || ch.Reason == "" {
			t.Errorf("%s planned %+v", name, ch)
		}
	}
	_, err = stagePlan(t, map[string]string{"app.yaml": cm("a", "    kapp.k14s.io/change-group: a\n    kapp.k14s.io/change-rule: upsert after upserting b\n") +
		cm("b", "    kapp.k14s.io/change-group: b\n    kapp.k14s.io/change-rule: upsert after upserting a\n") +
		cm("c", "    argocd.argoproj.io/sync-wave: one\n")})
	var errs plan.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v, want plan.Errors", err)
	}
	msg := err.Error()
	for _, want := range []string{"app.yaml:7:31", "app.yaml:24:35", "not an integer", "cycle"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
}
