package ghview

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// failedApply is a Single apply whose Deployment crash-loops; its log
// prints a value only the view knows to be secret (a manifest's, given
// to Loaded), a workflow command and an escaped newline.
func failedApply() *run.Report {
	web := plan.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "shop-prod", Name: "web"}
	d := &health.Diagnosis{Source: "deploy/web.yaml:10:1",
		Causes: []health.Cause{{Signal: health.Signal{Pod: "web-1", Container: "main", Reason: "CrashLoopBackOff", Restarts: 2, ExitCode: 1, Previous: true},
			Pods: 1, Log: []string{"password is " + secret, "::error::forged%0A::add-mask::x"}}},
		Events: []health.Event{{Object: "Pod/web-1", Reason: "BackOff", Note: "Back-off restarting failed container main", Count: 4}}}
	res := &apply.Result{Objects: []apply.ObjectResult{{Ref: web, Outcome: apply.Created}},
		Health: []health.Result{{Ref: web, Status: health.Failed, Diagnosis: d}}}
	return &run.Report{Single: true, Projects: []run.ProjectReport{{Namespace: "shop-prod", ApplySet: "configmap/gitops-applyset", Status: run.Failed,
		Result: res, Error: "deployment.apps/web: CrashLoopBackOff"}}}
}

// A failed apply on a pull request: an ::error:: at the workload's line,
// the diagnosis in the job summary and in the plan's sticky comment (the
// same marker, so the plan comment now shows the apply), every value the
// view masks hidden, and no log line a workflow command.
func TestRunAppliedFailureOnPullRequest(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	marker := ghcomment.Marker("prod", "shop-prod", "configmap/gitops-applyset")
	planComment := srv.AddComment(ghRepo, ghPR, "github-actions[bot]", marker+"\nthe plan")
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	v := NewRun(a.env, &stderr, RunOptions{Token: ghToken, ApplyComment: true, Single: true, Cluster: "prod", Namespace: "shop-prod", ApplySet: "configmap/gitops-applyset"})
	v.Loaded(secretObject())
	r := failedApply()
	if err := v.Applied(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	log := stderr.String()
	cmds := githubtest.RunnerCommands(log)
	var errCmd string
	for _, c := range cmds {
		switch {
		case strings.HasPrefix(c, "::error ") && errCmd == "":
			errCmd = c
		case c != "::add-mask::"+ghToken && c != "::add-mask::"+secret:
			t.Errorf("the runner runs %q", c)
		}
	}
	if !strings.HasPrefix(errCmd, "::error file=deploy/web.yaml,line=10,col=1,title=deployment.apps/web failed%3A CrashLoopBackOff::container main: CrashLoopBackOff") ||
		!strings.Contains(errCmd, "| password is ***%0A") || !strings.Contains(errCmd, "| ::error::forged%250A::add-mask::x%0A") {
		t.Errorf("error annotation: %q\nlog:\n%s", errCmd, log)
	}
	if !strings.Contains(log, "kubeplan: updated the apply comment on pull request #7") {
		t.Errorf("log:\n%s", log)
	}
	sum := a.read(t, a.summary)
	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 1 || cs[0].ID != planComment {
		t.Fatalf("comments: %+v", cs)
	}
	for what, md := range map[string]string{"job summary": sum, "comment": cs[0].Body} {
		for _, want := range []string{"### kubeplan apply: namespace `shop-prod`, ApplySet `configmap/gitops-applyset`", "> The apply failed: deployment.apps/web: CrashLoopBackOff",
			"**❌ `deployment.apps/web` failed: CrashLoopBackOff**, defined at `deploy/web.yaml:10:1`", "Container `main`: **CrashLoopBackOff**",
			"```text\npassword is ***\n::error::forged%0A::add-mask::x\n```", "| `Pod/web-1` | BackOff | 4 | Back-off restarting failed container main |"} {
			if !strings.Contains(md, want) {
				t.Errorf("%s lacks %q:\n%s", what, want, md)
			}
		}
	}
	for what, text := range map[string]string{"log": log, "job summary": sum, "comment": cs[0].Body, "outputs": a.read(t, a.outputs)} {
		for line := range strings.SplitSeq(text, "\n") {
			if strings.Contains(line, secret) && !strings.HasPrefix(line, "::add-mask::") {
				t.Errorf("%s shows the secret: %q", what, line)
			}
		}
	}
	if got := r.Projects[0].Result.Health[0].Diagnosis.Causes[0].Log[0]; got != "password is "+secret {
		t.Errorf("the view changed the caller's report: %q", got)
	}

	// apply --comment=false: no comment, the rest as before.
	srv.ResetLog()
	v = NewRun(a.env, &stderr, RunOptions{Token: ghToken, Single: true, Namespace: "shop-prod", ApplySet: "configmap/gitops-applyset"})
	if err := v.Applied(context.Background(), failedApply()); err != nil || len(srv.Calls()) != 0 {
		t.Errorf("without ApplyComment: %v, requests %q", err, srv.Calls())
	}
}
