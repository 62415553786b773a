package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestPlanMarkdownStages(t *testing.T) {
	p := stagedPlan()
	p.Changes = append(p.Changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: "kept"},
		Action: plan.Release, Reason: "prune disabled: kept, no longer managed", Stage: "wave 0"})
	out := string(renderPlan(t, "markdown", p, PlanOptions{}))
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
		"\n#### Prune, after the last wave, in reverse stage order\n\n| | object | was in |\n|---|---|---|\n"+
			"| 🗑️ prune | `configmap/old-wave1` | wave 1 |\n| 🗑️ prune | `configmap/old-wave0` | wave 0 |\n"+
			"| 🏷️ release (prune disabled: kept, no longer managed) | `configmap/kept` | wave 0 |\n",
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
