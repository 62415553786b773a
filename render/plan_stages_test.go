package render

import (
	"encoding/json"
	"fmt"
	"regexp"
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
		"+ create serviceaccount/hooks (app/hooks-sa.yaml:1:1) (PreSync,PostSync hook) (diff under PreSync hooks)\n",
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
	if n := strings.Count(out, "+kind: ServiceAccount"); n != 1 {
		t.Errorf("the diff of the hook of two stages is shown %d times, want once:\n%s", n, out)
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
	if !regexp.MustCompile(`⚠️ [0-9]+ table rows and [0-9] diffs were left out`).MatchString(out) || strings.Count(out, "table row") != 1 {
		t.Errorf("the note does not count the stage tables' rows once:\n%s", out)
	}
	whole := string(renderPlan(t, "markdown", p, PlanOptions{MaxBytes: 1 << 30}))
	if strings.Contains(whole, "left out") || !strings.Contains(whole, "`configmap/d299`") {
		t.Errorf("the whole plan is cut without a limit")
	}
}

// TestPlanJSONStages decodes the stages and each change's stage of the
// plan JSON, refusing fields the documented shape does not have.
func TestPlanJSONStages(t *testing.T) {
	p := stagedPlan()
	var doc struct {
		Version int `json:"version"`
		Stages  []struct {
			Name     string     `json:"name"`
			Phase    string     `json:"phase"`
			Wave     int        `json:"wave"`
			Step     int        `json:"step"`
			OnFail   bool       `json:"onFail"`
			Members  []plan.Ref `json:"members"`
			WaitsFor []string   `json:"waitsFor"`
		} `json:"stages"`
		Changes []struct {
			Ref    plan.Ref    `json:"ref"`
			Action plan.Action `json:"action"`
			Stage  string      `json:"stage"`
		} `json:"changes"`
	}
	raw := renderPlan(t, "json", p, PlanOptions{})
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != PlanJSONVersion || PlanJSONVersion != 1 {
		t.Errorf("version = %d: stages are additive fields, the document stays version 1", doc.Version)
	}
	if len(doc.Stages) != len(p.Stages) {
		t.Fatalf("%d stages, want %d:\n%s", len(doc.Stages), len(p.Stages), raw)
	}
	for i, s := range doc.Stages {
		w := p.Stages[i]
		if s.Name != w.Name || s.Phase != w.Phase || s.Wave != w.Wave || s.Step != w.Step || s.OnFail != w.OnFail ||
			!slices.Equal(s.Members, w.Members) || !slices.Equal(s.WaitsFor, w.WaitsFor) && len(w.WaitsFor) > 0 {
			t.Errorf("stage %d = %+v, want %+v", i, s, w)
		}
	}
	if doc.Stages[1].WaitsFor == nil || len(doc.Stages[1].WaitsFor) != 0 || !strings.Contains(string(raw), `"waitsFor": []`) {
		t.Errorf("a stage that writes nothing has waitsFor %v, want []:\n%s", doc.Stages[1].WaitsFor, raw)
	}
	if !doc.Stages[4].OnFail || doc.Stages[3].OnFail {
		t.Errorf("onFail = %v, %v; want only the SyncFail stage", doc.Stages[3].OnFail, doc.Stages[4].OnFail)
	}
	stageOf := map[string]string{}
	for _, c := range doc.Changes {
		stageOf[c.Ref.String()] = c.Stage
	}
	for ref, want := range map[string]string{"job.batch/migrate": "PreSync hooks", "deployment.apps/web": "wave 0",
		"job.batch/cleanup": "SyncFail hooks", "configmap/old-wave1": "wave 1", "configmap/manual": ""} {
		if got := stageOf[ref]; got != want {
			t.Errorf("%s: stage %q, want %q", ref, got, want)
		}
	}
	if plain := string(renderPlan(t, "json", planFixture(), PlanOptions{})); strings.Contains(plain, `"stage`) {
		t.Errorf("a plan without stages has stage fields:\n%s", plain)
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
