package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
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
			{Ref: sa, Action: plan.Create, Source: src("hooks-sa.yaml"), Hook: "PreSync,PostSync", Stage: "PreSync hooks"},
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

// indexes returns where each of wants is in out, failing unless every one
// is there, in that order.
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

func TestPlanTextStages(t *testing.T) {
	out := string(renderPlan(t, "text", stagedPlan(), PlanOptions{}))
	inOrder(t, out,
		"Stage 1 of 4: PreSync hooks\n  waits for: serviceaccount/hooks ready, job.batch/migrate complete\n\n",
		"+ create job.batch/migrate (app/migrate.yaml:1:1) (PreSync hook)\n    --- /dev/null\n",
		"+ create serviceaccount/hooks (app/hooks-sa.yaml:1:1) (PreSync,PostSync hook)\n",
		"\nStage 2 of 4: wave -1\n  writes nothing\n\nStage 3 of 4: wave 0\n  waits for: deployment.apps/web rolled out, service/web ready\n\n",
		"+ create service/web (app/svc.yaml:1:1)\n",
		"~ update deployment.apps/web (app/web.yaml:1:1)\n    --- live\n",
		"\nStage 4 of 4: PostSync hooks\n  waits for: serviceaccount/hooks ready, job.batch/smoke complete\n\n",
		"+ create job.batch/smoke (app/smoke.yaml:1:1) (PostSync hook)\n",
		"+ create serviceaccount/hooks (app/hooks-sa.yaml:1:1) (PreSync,PostSync hook)\n",
		"\nIf a stage fails: SyncFail hooks\n  waits for: job.batch/cleanup complete\n\n"+
			"  unchanged job.batch/cleanup (app/cleanup.yaml:1:1) (SyncFail hook: runs only when a stage fails)\n",
		"\nPrune, after the last wave, in reverse stage order:\n\n"+
			"- prune configmap/old-wave1 (was in wave 1)\n- prune configmap/old-wave0 (was in wave 0)\n",
		"\n  unchanged configmap/manual (app/manual.yaml:1:1) (skipped: argocd.argoproj.io/hook: Skip, never applied)\n",
		"  unchanged configmap/settings (app/settings.yaml:1:1)\n",
		"\nPlan: 4 to add, 1 to change, 2 to prune, 3 unchanged.\n",
	)
	if n := strings.Count(out, "job.batch/cleanup (app"); n != 1 {
		t.Errorf("the SyncFail hook is listed %d times, want once (under its stage):\n%s", n, out)
	}
	if n := strings.Count(out, "create serviceaccount/hooks"); n != 2 {
		t.Errorf("the hook of two stages is listed %d times, want under each of its 2 stages:\n%s", n, out)
	}
}

func TestPlanTextStagesColor(t *testing.T) {
	plain := string(renderPlan(t, "text", stagedPlan(), PlanOptions{}))
	color := string(renderPlan(t, "text", stagedPlan(), PlanOptions{Color: true}))
	if !strings.Contains(color, ansiBold+"Stage 1 of 4: PreSync hooks"+ansiReset) {
		t.Errorf("stage heading not bold:\n%q", color)
	}
	if got := ansiCode.ReplaceAllString(color, ""); got != plain {
		t.Errorf("colour changes more than escape codes:\n%s\nwant\n%s", got, plain)
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

// TestPlanTextStagesHostile: names from the manifests cannot move the
// terminal's cursor from a stage heading or a waits-for line.
func TestPlanTextStagesHostile(t *testing.T) {
	p := stagedPlan()
	p.Stages[0].Name = "PreSync\x1b[2J hooks"
	p.Stages[0].WaitsFor = []string{"job.batch/mi\x1b]0;x\x07grate complete"}
	out := string(renderPlan(t, "text", p, PlanOptions{}))
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("control characters written:\n%q", out)
	}
	if !strings.Contains(out, `PreSync\x1b[2J hooks`) {
		t.Errorf("escaped stage name missing:\n%s", out)
	}
}

func TestPlanMarkdownStages(t *testing.T) {
	out := string(renderPlan(t, "markdown", stagedPlan(), PlanOptions{}))
	inOrder(t, out,
		"\n#### Prune\n\nThese objects left the manifests; applying deletes them from the cluster, after the last wave, in reverse stage order:\n\n"+
			"- `configmap/old-wave1` (was in wave 1)\n- `configmap/old-wave0` (was in wave 0)\n",
		"\n#### Stage 1 of 4: PreSync hooks\n\nWaits for: `serviceaccount/hooks` ready, `job.batch/migrate` complete.\n\n| | object | source |\n|---|---|---|\n"+
			"| ➕ create | `job.batch/migrate` | `app/migrate.yaml:1` |\n| ➕ create | `serviceaccount/hooks` | `app/hooks-sa.yaml:1` |\n",
		"\n#### Stage 2 of 4: wave -1\n\nWrites nothing.\n\n#### Stage 3 of 4: wave 0\n\nWaits for: `deployment.apps/web` rolled out, `service/web` ready.\n",
		"| 🔄 update | `deployment.apps/web` | `app/web.yaml:1` |\n",
		"\n#### Stage 4 of 4: PostSync hooks\n\n",
		"| ➕ create | `serviceaccount/hooks` | `app/hooks-sa.yaml:1` |\n",
		"\n#### If a stage fails: SyncFail hooks\n\nRuns only when a stage fails. Waits for: `job.batch/cleanup` complete.\n",
		"| ⏸️ unchanged (SyncFail hook: runs only when a stage fails) | `job.batch/cleanup` | `app/cleanup.yaml:1` |\n",
		"<summary>+ create job.batch/migrate (PreSync hooks)</summary>",
		"<summary>~ update deployment.apps/web (wave 0)</summary>",
	)
	if strings.Contains(out, "#### Changes") {
		t.Errorf("a plan with stages has the one change table too:\n%s", out)
	}
	if strings.Contains(out, "configmap/manual") {
		t.Errorf("a skipped object is in the comment (unchanged objects are only counted):\n%s", out)
	}
}

// TestPlanMarkdownStagesHostile: stage names and waits-for entries are
// escaped as all cluster and manifest text is.
func TestPlanMarkdownStagesHostile(t *testing.T) {
	p := stagedPlan()
	p.Stages[1].Name = "wave <img src=x> @admin #12 |"
	p.Stages[0].WaitsFor = []string{"job.batch/mi`grate complete <b>", "job.batch/x ready"}
	out := string(renderPlan(t, "markdown", p, PlanOptions{}))
	for _, bad := range []string{"<img", "<b>", "@admin", "#12"} {
		if strings.Contains(out, bad) {
			t.Errorf("markdown holds %q unescaped:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "#### Stage 2 of 4: wave &lt;img src=x&gt; @&#8203;admin #&#8203;12 \\|\n") {
		t.Errorf("stage heading not escaped as mdText does:\n%s", out)
	}
	if !strings.Contains(out, "Waits for: job.batch/mi\\`grate complete &lt;b&gt;, `job.batch/x` ready.\n") {
		t.Errorf("waits-for line not escaped:\n%s", out)
	}
}

// TestPlanMarkdownStagesFit: a staged plan too big for the comment is
// cut to the limit, the rows cut from the stage tables counted once in
// the note, and the headings of stages that fit are all there.
func TestPlanMarkdownStagesFit(t *testing.T) {
	p := stagedPlan()
	for i := range 300 {
		r := plan.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "store", Name: fmt.Sprintf("c%03d", i)}
		p.Changes = append(p.Changes, plan.Change{Ref: r, Action: plan.Create, Stage: "wave 0", Source: plan.Source{File: "app/many.yaml", Line: i + 1, Col: 1}})
		p.Stages[2].Members = append(p.Stages[2].Members, r)
		r.Name = fmt.Sprintf("d%03d", i)
		p.Changes = append(p.Changes, plan.Change{Ref: r, Action: plan.Create, Stage: "PostSync hooks", Source: plan.Source{File: "app/many.yaml", Line: i + 1, Col: 1}})
		p.Stages[3].Members = append(p.Stages[3].Members, r)
	}
	const limit = 8000
	out := string(renderPlan(t, "markdown", p, PlanOptions{MaxBytes: limit}))
	if len(out) > limit {
		t.Fatalf("markdown is %d bytes, over the %d limit", len(out), limit)
	}
	inOrder(t, out, "\n**Stages:** PreSync hooks → wave -1 → wave 0 → PostSync hooks; if a stage fails: SyncFail hooks.\n",
		"#### Stage 1 of 4: PreSync hooks", "#### Stage 2 of 4: wave -1\n\nWrites nothing.\n", "#### Stage 3 of 4: wave 0", "_…and ")
	if !regexp.MustCompile(`⚠️ [0-9]+ table rows and 2 diffs were left out`).MatchString(out) || strings.Count(out, "table row") != 1 {
		t.Errorf("the note does not count the stage tables' rows once:\n%s", out)
	}
	whole := string(renderPlan(t, "markdown", p, PlanOptions{MaxBytes: 1 << 30}))
	if strings.Contains(whole, "left out") || !strings.Contains(whole, "`configmap/d299`") {
		t.Errorf("the whole plan is cut without a limit")
	}
}
