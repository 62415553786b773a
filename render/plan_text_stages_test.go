package render

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

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

// TestPlanTextStagesRelease: a release is in the block after the last
// wave, in the plan's order, with the stage it was in.
func TestPlanTextStagesRelease(t *testing.T) {
	p := stagedPlan()
	p.Changes = append(p.Changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: "kept"},
		Action: plan.Release, Reason: "prune disabled: kept, no longer managed", Stage: "wave 0"})
	out := string(renderPlan(t, "text", p, PlanOptions{}))
	inOrder(t, out, "\nPrune, after the last wave, in reverse stage order:\n\n- prune configmap/old-wave1 (was in wave 1)\n",
		"- prune configmap/old-wave0 (was in wave 0)\n\n~ release configmap/kept (prune disabled: kept, no longer managed) (was in wave 0)\n")
}

// TestPlanTextStagesLoose: a change no stage names is still shown, under
// its own heading, never dropped.
func TestPlanTextStagesLoose(t *testing.T) {
	p := stagedPlan()
	p.Changes = append(p.Changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "store", Name: "stray"},
		Action: plan.Create, Source: plan.Source{File: "app/stray.yaml", Line: 1, Col: 1}})
	out := string(renderPlan(t, "text", p, PlanOptions{}))
	inOrder(t, out, "If a stage fails: SyncFail hooks", "\nIn no stage:\n\n+ create configmap/stray (app/stray.yaml:1:1)\n", "Prune, after the last wave")
	md := string(renderPlan(t, "markdown", p, PlanOptions{}))
	inOrder(t, md, "#### If a stage fails: SyncFail hooks", "\n#### In no stage\n\n| | object | source |\n|---|---|---|\n| ➕ create | `configmap/stray` | `app/stray.yaml:1` |\n")
}
