package plan_test

import (
	"context"

	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"

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

// annotatedCM is a ConfigMap document with the annotation lines ann.
func annotatedCM(name, ann string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  annotations:\n" + ann + "data: {k: v}\n---\n"
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
	p, err := stagePlan(t, map[string]string{"hooks.yaml": annotatedCM("early", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: \"-5\"\n") +
		annotatedCM("both", "    helm.sh/hook: pre-install,post-install\n") +
		annotatedCM("upgrade-only", "    helm.sh/hook: pre-upgrade\n") +
		annotatedCM("after", "    helm.sh/hook: post-install\n") +
		annotatedCM("plain", "    note: none\n")})
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
	plain, err := stagePlan(t, map[string]string{"cm.yaml": annotatedCM("plain", "    note: none\n")})
	if err != nil || plain.Stages != nil || find(plain, "configmap/plain").Stage != "" {
		t.Errorf("a plan without ordering annotations has stages: %v %+v", err, plain)
	}
}

// Argo CD's Skip and SyncFail are planned unchanged; an order that cannot
// be followed fails the plan at the annotation's file:line:col.
func TestIntegrationStagesArgoAndProblems(t *testing.T) {
	p, err := stagePlan(t, map[string]string{"app.yaml": annotatedCM("skipped", "    argocd.argoproj.io/hook: Skip\n") +
		annotatedCM("onfail", "    argocd.argoproj.io/hook: SyncFail\n") +
		annotatedCM("late", "    argocd.argoproj.io/sync-wave: \"2\"\n")})
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
	_, err = stagePlan(t, map[string]string{"app.yaml": annotatedCM("a", "    kapp.k14s.io/change-group: a\n    kapp.k14s.io/change-rule: upsert after upserting b\n") +
		annotatedCM("b", "    kapp.k14s.io/change-group: b\n    kapp.k14s.io/change-rule: upsert after upserting a\n") +
		annotatedCM("c", "    argocd.argoproj.io/sync-wave: one\n")})
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

// An Argo CD hook named by generateName alone is refused with what to do:
// kubeplan owns objects by name.
func TestIntegrationStagesGenerateName(t *testing.T) {
	_, err := stagePlan(t, map[string]string{"hook.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: migrate-\n  annotations:\n    argocd.argoproj.io/hook: PreSync\n" +
		"spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - {name: m, image: busybox:1.37}\n"})
	if err == nil || !strings.Contains(err.Error(), "hook.yaml:1:1") || !strings.Contains(err.Error(), `metadata.generateName "migrate-" but no metadata.name`) {
		t.Fatalf("error %v", err)
	}
}

// A namespace the set creates and that does not exist yet holds no
// dry-run: its objects are planned as created after it. The ApplySet
// parent cannot wait for its own namespace: refused with what to do.
func TestIntegrationNamespaceTheSetCreates(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	other := ns + "-extra"
	t.Cleanup(func() { _, _ = c.TryKubectl("delete", "namespace", other, "--wait=false") })
	objs := load(t, writeSet(t, map[string]string{"app.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + other + "\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: " + other + "\ndata: {k: v}\n---\n" + seedConfigMap}))
	as := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: ns}
	p, err := plan.Make(context.Background(), client(t, c.AdminKubeconfig(), ns), objs, plan.Options{Namespace: ns, ApplySet: &as, AllowOtherNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	ch := find(p, "configmap/settings")
	for _, c := range p.Changes {
		if c.Ref.Name == "settings" && c.Ref.Namespace == other {
			ch = &c
		}
	}
	if ch == nil || ch.Ref.Namespace != other || ch.Action != plan.Create || !ch.AfterCRD || ch.After() != "Namespace "+other {
		t.Errorf("the ConfigMap in the namespace the set creates: %+v", ch)
	}
	parentIn := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: other}
	_, err = plan.Make(context.Background(), client(t, c.AdminKubeconfig(), other), objs, plan.Options{Namespace: other, ApplySet: &parentIn, AllowOtherNamespaces: true})
	if err == nil || !strings.Contains(err.Error(), "the ApplySet parent configmap/set lives in namespace \""+other+"\", which this set creates") || !strings.Contains(err.Error(), "kubectl create namespace "+other) {
		t.Errorf("error %v", err)
	}
	if _, err := apply.Reconcile(context.Background(), client(t, c.AdminKubeconfig(), ns), p, apply.Options{ApplySet: &as, Version: "test"}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if out, _ := c.TryKubectl("-n", other, "get", "configmap", "settings", "-o", "name"); strings.TrimSpace(out) != "configmap/settings" {
		t.Errorf("after apply: %q", out)
	}
}
