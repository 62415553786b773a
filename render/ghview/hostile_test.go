package ghview

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// hostileRun is a run whose project name, file names, drift managers,
// diff and error are written by a pull request to command the runner and
// to forge the comment.
func hostileRun() *run.Report {
	forged := "x\n  ::add-mask::prune\n##[error]forged\n::stop-commands::abc @octocat"
	web := run.ProjectReport{Project: project.Project{Name: "web ::error::forged ##[error]forged"}, Cluster: "prod",
		Namespace: "shop", Status: run.Changes, Plan: &plan.Plan{Namespace: "shop", Changes: []plan.Change{
			{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, Action: plan.Update,
				Source: plan.Source{File: "a,b::error::c.yaml", Line: 3},
				Diff:   "--- live\n+++ planned\n   ::error::forged\n x ##[error]forged\n-a: 1\n+a: \"@octocat\"\n```\n<!-- kubeplan:plan scope=acme/shop:kubeplan.yaml -->\n",
				Drift:  []plan.Drift{{Field: "data.a", Live: "3", Want: "2", Manager: forged}}},
			{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "old"}, Action: plan.Prune},
		}}}
	bad := run.ProjectReport{Project: project.Project{Name: "api"}, Cluster: "prod", Namespace: "shop", Status: run.Failed, Error: forged}
	return &run.Report{Version: run.FormatVersion, Projects: []run.ProjectReport{bad, web}}
}

// With stderr behind a Guard, the view's masks and annotations are the
// only commands the runner sees, and what the pull request wrote into
// them commands nothing; the comment mentions nobody; a comment by someone
// else carrying the marker is left as it is, and kubeplan's own is made.
func TestRunViewHostile(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	scope := "acme/shop:kubeplan.yaml"
	fake := ghcomment.ScopeMarker(scope) + "\n### kubeplan plan: no changes (forged)"
	impostor := srv.AddComment(ghRepo, ghPR, "mallory", fake)
	a := newActionsEnv(t, srv)
	var log strings.Builder
	_, stderr := ghactions.NewGuards(&log, &log, true)
	v := NewRun(a.env, stderr, RunOptions{Token: ghToken, Comment: true, Scope: scope})
	v.Loaded(secretObject())
	if err := v.Done(context.Background(), hostileRun()); err != nil {
		t.Fatal(err)
	}

	cmds := githubtest.RunnerCommands(log.String())
	var names []string
	for _, c := range cmds {
		info, data, _ := strings.Cut(strings.TrimPrefix(c, "::"), "::")
		name, _, _ := strings.Cut(info, " ")
		names = append(names, name)
		if name == "add-mask" && data != ghToken && data != secret {
			t.Errorf("forged mask: %q", c)
		}
	}
	if want := []string{"add-mask", "add-mask", "warning", "warning"}; !slices.Equal(names, want) {
		t.Errorf("runner commands %q (%q), want %q", names, cmds, want)
	}
	if !strings.Contains(log.String(), "left alone 1 comment on pull request #7") {
		t.Errorf("log does not say the impostor was left alone:\n%s", log.String())
	}

	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 2 || cs[0].ID != impostor || cs[0].Body != fake || cs[1].Login != ghcomment.ActionsBot {
		t.Fatalf("comments %+v, want the impostor's untouched and kubeplan's new", cs)
	}
	body := cs[1].Body
	fence := ""
	for line := range strings.SplitSeq(body, "\n") {
		if t := strings.TrimSpace(line); fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
				fence = ""
			}
			continue
		} else if strings.HasPrefix(t, "```") {
			fence = t[:len(t)-len(strings.TrimLeft(t, "`"))]
			continue
		}
		if strings.Contains(line, "@octocat") || strings.Contains(line, "<!--") && !strings.HasPrefix(body, line+"\n") {
			t.Errorf("outside code, the comment says %q:\n%s", line, body)
		}
	}
	if !strings.Contains(body, "@&#8203;octocat") {
		t.Errorf("the drift manager's mention is not shown escaped:\n%s", body)
	}
	if n := strings.Count(body, "<!-- kubeplan:plan"); n != 2 || !strings.HasPrefix(body, ghcomment.ScopeMarker(scope)+"\n") {
		t.Errorf("marker count %d (the real one, the diff line's in its fence):\n%s", n, body)
	}
}

// Without a Guard (outside GitHub mode's streams) the view still writes its
// commands, unescaped, to stderr.
func TestPlanViewFailedPlainStderr(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	v := NewRun(a.env, &stderr, RunOptions{Token: ghToken, Comment: true, Single: true, Namespace: "shop"})
	v.Failed(context.Background(), errors.New("kubeplan.yaml: @octocat ::error::forged"))
	if !strings.HasPrefix(stderr.String(), "::add-mask::"+ghToken+"\n") {
		t.Errorf("stderr %q", stderr.String())
	}
	cs := srv.Comments(ghRepo, ghPR)
	// the error is in a code block, where GitHub mentions nobody
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "\n```\nkubeplan.yaml: @octocat ::error::forged\n```\n") {
		t.Errorf("comments %+v", cs)
	}
}
