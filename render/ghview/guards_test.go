package ghview

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// outputValue is the value the step wrote for name in $GITHUB_OUTPUT
// ("name<<DELIM\nvalue\nDELIM"), and whether it wrote one.
func outputValue(outputs, name string) (string, bool) {
	_, rest, ok := strings.Cut(outputs, "\n"+name+"<<")
	if !ok {
		_, rest, ok = strings.Cut("\n"+outputs, "\n"+name+"<<")
	}
	if !ok {
		return "", false
	}
	lines := strings.SplitN(rest, "\n", 3)
	if len(lines) < 2 {
		return "", false
	}
	return lines[1], true
}

var pvc = guard.Verdict{Rule: guard.ProtectPVC, Outcome: guard.RequireApproval, Builtin: true, Object: "persistentvolumeclaim/data",
	Namespace: "shop-prod", Action: "prune", Message: "pruning a PersistentVolumeClaim deletes its volume"}

// The outputs needs-approval and denied say whether a rule over a plan
// waits for an approval or denies it; the annotations and the comment
// name the rule and the flag that approves it, and who approved.
func TestRunDoneGuards(t *testing.T) {
	approved := pvc
	approved.Approval = &guard.Approval{Rule: guard.ProtectPVC, Reason: "moved", Via: "review", By: "@alice", PullRequest: ghPR}
	deny := guard.Verdict{Rule: "no-public-lb", Outcome: guard.Deny, Object: "service/web", Namespace: "shop-prod", Action: "update",
		Message: "LoadBalancer Services are not allowed", Files: []string{"shop/web/prod/service.yaml"}}
	for name, tc := range map[string]struct {
		guards                 []guard.Verdict
		needsApproval, denied  string
		stderr, comment, notIn []string
	}{
		"none": {needsApproval: "false", denied: "false", notIn: []string{"Guard"}},
		"pending": {guards: []guard.Verdict{pvc}, needsApproval: "true", denied: "false",
			stderr:  []string{"::warning title=protect-pvc needs approval in shop-web-prod::protect-pvc: prunes persistentvolumeclaim/data in shop-prod: pruning a PersistentVolumeClaim deletes its volume (approve: --approve protect-pvc=REASON)"},
			comment: []string{"**Guards:** 1 needs approval; apply refuses this plan until each is approved", "`--approve protect-pvc=REASON`", "changes, ✋ needs approval |"}},
		"approved": {guards: []guard.Verdict{approved}, needsApproval: "false", denied: "false",
			comment: []string{"**Guards:** 1 approved.", "approved by @&#8203;alice via review on PR #&#8203;7: moved"}, notIn: []string{"protect-pvc needs approval"}},
		"denied": {guards: []guard.Verdict{deny, pvc}, needsApproval: "true", denied: "true",
			stderr:  []string{"::error file=shop/web/prod/service.yaml,title=no-public-lb denies in shop-web-prod::no-public-lb: updates service/web in shop-prod: LoadBalancer Services are not allowed (no approval lets it through)"},
			comment: []string{"| ⛔ denied | `no-public-lb` | update `service/web` in `shop-prod` | LoadBalancer Services are not allowed | cannot be approved |"}},
	} {
		t.Run(name, func(t *testing.T) {
			srv := githubtest.New(t, ghRepo, ghToken)
			a := newActionsEnv(t, srv)
			var stderr strings.Builder
			v := NewRun(a.env, &stderr, RunOptions{Token: ghToken, Comment: true, Scope: "acme/shop:kubeplan.yaml"})
			r := shopRun("prod")
			r.Projects[1].Plan.Guards = tc.guards
			if err := v.Done(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			outputs := a.read(t, a.outputs)
			if got, ok := outputValue(outputs, "needs-approval"); !ok || got != tc.needsApproval {
				t.Errorf("needs-approval = %q (%v), want %s:\n%s", got, ok, tc.needsApproval, outputs)
			}
			if got, ok := outputValue(outputs, "denied"); !ok || got != tc.denied {
				t.Errorf("denied = %q (%v), want %s:\n%s", got, ok, tc.denied, outputs)
			}
			cs := srv.Comments(ghRepo, ghPR)
			if len(cs) != 1 {
				t.Fatalf("%d comments", len(cs))
			}
			for _, want := range tc.stderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			for _, want := range tc.comment {
				if !strings.Contains(cs[0].Body, want) {
					t.Errorf("comment lacks %q:\n%s", want, cs[0].Body)
				}
			}
			for _, not := range tc.notIn {
				if strings.Contains(cs[0].Body, not) || strings.Contains(stderr.String(), not) {
					t.Errorf("%q shown:\n%s\n%s", not, stderr.String(), cs[0].Body)
				}
			}
		})
	}
}

// After an apply that withheld a prune (serve's), needs-approval is true.
func TestRunAppliedWithheld(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	v := NewRun(a.env, &stderr, RunOptions{Single: true, Namespace: "shop-prod", ApplySet: "configmap/gitops-applyset"})
	res := &apply.Result{Objects: []apply.ObjectResult{
		{Ref: plan.Ref{Version: "v1", Kind: "PersistentVolumeClaim", Namespace: "shop-prod", Name: "data"}, Outcome: apply.Withheld}},
		Pending: []guard.Verdict{pvc}}
	if err := v.Applied(context.Background(), &run.Report{Single: true, Projects: []run.ProjectReport{{Status: run.Applied, Result: res}}}); err != nil {
		t.Fatal(err)
	}
	outputs := a.read(t, a.outputs)
	if got, _ := outputValue(outputs, "needs-approval"); got != "true" {
		t.Errorf("needs-approval = %q:\n%s", got, outputs)
	}
	if s := a.read(t, a.summary); !strings.Contains(s, "✋ Pending approval protect-pvc") || !strings.Contains(s, "✋ withheld, awaiting approval") {
		t.Errorf("job summary:\n%s", s)
	}
}
