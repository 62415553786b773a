package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// stagedPlan is a plan of an Argo CD-annotated application: a PreSync
// migration Job and a ServiceAccount hook of both PreSync and PostSync,
// an empty wave -1, wave 0 with the Deployment and Service, a PostSync
// smoke test, a SyncFail clean-up hook (planned unchanged), two prunes
// in reverse stage order (wave 1's before wave 0's) and a skipped object.
func stagedPlan() *plan.Plan {
	ref := func(group, kind, resource, name string) plan.Ref {
		v := "v1"
		return plan.Ref{Group: group, Version: v, Kind: kind, Resource: resource, Namespace: "store", Name: name}
	}
	migrate := ref("batch", "Job", "jobs", "migrate")
	sa := ref("", "ServiceAccount", "serviceaccounts", "hooks")
	web := ref("apps", "Deployment", "deployments", "web")
	svc := ref("", "Service", "services", "web")
	cfg := ref("", "ConfigMap", "configmaps", "settings")
	smoke := ref("batch", "Job", "jobs", "smoke")
	cleanup := ref("batch", "Job", "jobs", "cleanup")
	skipped := ref("", "ConfigMap", "configmaps", "manual")
	src := func(f string) plan.Source { return plan.Source{File: "app/" + f, Line: 1, Col: 1} }
	return &plan.Plan{
		Version: plan.FormatVersionStaged, Namespace: "store", FieldManager: "kubeplan",
		Changes: []plan.Change{
			{Ref: sa, Action: plan.Create, Source: src("hooks-sa.yaml"), Hook: "PreSync,PostSync", Stage: "PreSync hooks",
				Diff: "--- /dev/null\n+++ planned\n@@ -0,0 +1 @@\n+kind: ServiceAccount\n"},
			{Ref: migrate, Action: plan.Create, Source: src("migrate.yaml"), Hook: "PreSync", Stage: "PreSync hooks",
				Diff: "--- /dev/null\n+++ planned\n@@ -0,0 +1 @@\n+kind: Job\n"},
			{Ref: web, Action: plan.Update, Source: src("web.yaml"), Stage: "wave 0",
				Diff: "--- live\n+++ planned\n@@ -1 +1 @@\n-  image: web:1\n+  image: web:2\n"},
			{Ref: svc, Action: plan.Create, Source: src("svc.yaml"), Stage: "wave 0"},
			{Ref: cfg, Action: plan.Unchanged, Source: src("settings.yaml"), Stage: "wave 0"},
			{Ref: smoke, Action: plan.Create, Source: src("smoke.yaml"), Hook: "PostSync", Stage: "PostSync hooks"},
			{Ref: cleanup, Action: plan.Unchanged, Source: src("cleanup.yaml"), Hook: "SyncFail", Stage: "SyncFail hooks",
				Reason: "SyncFail hook: runs only when a stage fails"},
			{Ref: skipped, Action: plan.Unchanged, Source: src("manual.yaml"), Reason: "skipped: argocd.argoproj.io/hook: Skip, never applied"},
			{Ref: ref("", "ConfigMap", "configmaps", "old-wave1"), Action: plan.Prune, Stage: "wave 1"},
			{Ref: ref("", "ConfigMap", "configmaps", "old-wave0"), Action: plan.Prune, Stage: "wave 0"},
		},
		Stages: []plan.Stage{
			{Name: "PreSync hooks", Phase: "PreSync", Members: []plan.Ref{sa, migrate},
				WaitsFor: []string{"serviceaccount/hooks ready", "job.batch/migrate complete"}},
			{Name: "wave -1", Phase: "Sync", Wave: -1, Members: []plan.Ref{cfg}},
			{Name: "wave 0", Phase: "Sync", Members: []plan.Ref{web, svc},
				WaitsFor: []string{"deployment.apps/web rolled out", "service/web ready"}},
			{Name: "PostSync hooks", Phase: "PostSync", Members: []plan.Ref{sa, smoke},
				WaitsFor: []string{"serviceaccount/hooks ready", "job.batch/smoke complete"}},
			{Name: "SyncFail hooks", Phase: "SyncFail", OnFail: true, Members: []plan.Ref{cleanup},
				WaitsFor: []string{"job.batch/cleanup complete"}},
		},
	}
}

// inOrder fails the test unless every one of wants is in out,
// in that order.
func inOrder(t *testing.T, out string, wants ...string) {
	t.Helper()
	at := 0
	for _, w := range wants {
		i := strings.Index(out[at:], w)
		if i < 0 {
			t.Fatalf("output lacks %q after byte %d (or has it out of order):\n%s", w, at, out)
		}
		at += i + len(w)
	}
}

// TestWaitsForCapped: a stage writing many objects names maxWaitsFor of
// them and counts the rest.
func TestWaitsForCapped(t *testing.T) {
	p := stagedPlan()
	var many []string
	for i := range maxWaitsFor + 3 {
		many = append(many, fmt.Sprintf("configmap/c%d ready", i))
	}
	p.Stages[2].WaitsFor = many
	out := string(renderPlan(t, "text", p, PlanOptions{}))
	want := "  waits for: configmap/c0 ready, configmap/c1 ready, configmap/c2 ready, configmap/c3 ready, configmap/c4 ready, configmap/c5 ready and 3 more\n"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "configmap/c6") {
		t.Errorf("a waits-for line names more than %d objects:\n%s", maxWaitsFor, out)
	}
}

// TestPlanAnnotationsStages: in a plan with stages, an annotation says in
// which stage apply writes the object, or when it prunes it.
func TestPlanAnnotationsStages(t *testing.T) {
	p := stagedPlan()
	p.Changes[2].Drift = []plan.Drift{{Field: "spec.replicas", Live: "6", Want: "3", Manager: "kubectl-scale"}}
	var got []string
	for _, a := range PlanAnnotations(p) {
		got = append(got, a.String())
	}
	want := []string{
		"::warning file=app/web.yaml,line=1,title=drift::deployment.apps/web was changed in the cluster, and applying takes it back:%0Aspec.replicas (set by kubectl-scale)%0Astage: wave 0",
		"::warning title=prune::applying deletes configmap/old-wave1 from the cluster: it is no longer in the manifests%0Apruned after the last wave; it was in wave 1",
		"::warning title=prune::applying deletes configmap/old-wave0 from the cluster: it is no longer in the manifests%0Apruned after the last wave; it was in wave 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunPlanStages: the run views of several projects show a staged
// project's stages as its own plan does (text, markdown and JSON).
func TestRunPlanStages(t *testing.T) {
	r := runFixture()
	staged := runProject("shop-migrate-prod", "shop/migrate/prod", "prod", "store", run.Changes)
	staged.Plan = stagedPlan()
	r.Projects = append(r.Projects, staged)
	text := renderRun(t, "text", r, RunOptions{})
	if want := string(renderPlan(t, "text", staged.Plan, PlanOptions{})); !strings.Contains(text, want) {
		t.Errorf("the run's text lacks the staged plan's own text:\n%s", text)
	}
	md := renderRun(t, "markdown", r, RunOptions{})
	inOrder(t, md, "<summary>shop-migrate-prod: Plan: 4 to add", "**Stages:** PreSync hooks → wave -1 → wave 0 → PostSync hooks",
		"#### Stage 1 of 4: PreSync hooks\n\nWaits for: `serviceaccount/hooks` ready, `job.batch/migrate` complete.\n",
		"#### Stage 2 of 4: wave -1\n\nWrites nothing.\n", "#### If a stage fails: SyncFail hooks\n")
	var doc struct {
		Projects []struct {
			Name   string `json:"name"`
			Stages []struct {
				Name     string   `json:"name"`
				WaitsFor []string `json:"waitsFor"`
			} `json:"stages"`
			Changes []struct {
				Stage string `json:"stage"`
			} `json:"changes"`
		} `json:"projects"`
	}
	if err := json.Unmarshal([]byte(renderRun(t, "json", r, RunOptions{})), &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Projects {
		switch {
		case p.Name == "shop-migrate-prod":
			if len(p.Stages) != 5 || p.Stages[0].Name != "PreSync hooks" || len(p.Stages[0].WaitsFor) != 2 || p.Changes[0].Stage == "" {
				t.Errorf("the staged project's JSON stages = %+v, changes %+v", p.Stages, p.Changes)
			}
		case p.Stages != nil:
			t.Errorf("project %s has stages in JSON: %+v", p.Name, p.Stages)
		}
	}
}
