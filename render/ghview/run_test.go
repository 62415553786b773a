package ghview

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

const (
	ghRepo  = "acme/shop"
	ghToken = "ghs_runViewTestToken0123456789"
	ghPR    = 7
	secret  = "kp-s3cret-Value!"
)

// actionsEnv is a pull_request step's environment with its own env files.
type actionsEnv struct {
	env              ghactions.Env
	summary, outputs string
}

func newActionsEnv(t *testing.T, srv *githubtest.Server) actionsEnv {
	t.Helper()
	dir := t.TempDir()
	a := actionsEnv{summary: filepath.Join(dir, "summary"), outputs: filepath.Join(dir, "output")}
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, fmt.Appendf(nil, `{"number":%d,"pull_request":{"number":%d}}`, ghPR, ghPR), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
		"GITHUB_OUTPUT": a.outputs, "GITHUB_STEP_SUMMARY": a.summary, "GITHUB_API_URL": srv.APIURL(),
		"GITHUB_REPOSITORY": ghRepo, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
	}
	a.env = func(k string) string { return vars[k] }
	return a
}

func (a actionsEnv) read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// shopRun is a run of two projects: one with a create, a drift and a
// prune, one whose error quotes a Secret value.
func shopRun(cluster string) *run.Report {
	cm := func(name string) plan.Ref {
		return plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop-prod", Name: name}
	}
	web := run.ProjectReport{Project: project.Project{Name: "shop-web-prod", Path: "shop/web/prod"}, Cluster: cluster,
		Namespace: "shop-prod", ApplySet: "configmap/kubeplan-shop-web-prod", Status: run.Changes,
		Plan: &plan.Plan{Namespace: "shop-prod", Changes: []plan.Change{
			{Ref: cm("settings"), Action: plan.Update, Source: plan.Source{File: "shop/web/prod/settings.yaml", Line: 3, Col: 1},
				Diff: "--- live\n+++ planned\n-a: 1\n+a: 2\n", Drift: []plan.Drift{{Field: "data.a", Live: "3", Want: "2", Manager: "kubectl-edit"}}},
			{Ref: cm("old"), Action: plan.Prune},
		}}}
	api := run.ProjectReport{Project: project.Project{Name: "shop-api-prod", Path: "shop/api/prod"}, Cluster: cluster,
		Namespace: "shop-prod", Status: run.Failed, Error: "dry-run of secret/db: value " + secret + " is too long"}
	return &run.Report{Version: run.FormatVersion, Projects: []run.ProjectReport{api, web}}
}

func secretObject() []*manifest.Object {
	return []*manifest.Object{{Content: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"password": secret}}}}
}

func TestRunDoneOneCommentPerScope(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	human := srv.AddComment(ghRepo, ghPR, "alice", "LGTM")
	single := srv.AddComment(ghRepo, ghPR, "github-actions[bot]", ghcomment.Marker("prod", "shop-prod", "configmap/kubeplan-shop-web-prod")+"\nold single plan")
	ctx := context.Background()
	planRun := func(scope, cluster string) (actionsEnv, string) {
		a := newActionsEnv(t, srv)
		var stderr strings.Builder
		v := NewRun(a.env, &stderr, RunOptions{Token: ghToken, Comment: true, Version: "0.1.0", Scope: scope})
		v.SavedPlan(&plan.Plan{Changes: []plan.Change{{Object: secretObject()[0].Content}}})
		if err := v.Done(ctx, shopRun(cluster)); err != nil {
			t.Fatal(err)
		}
		return a, stderr.String()
	}

	a, stderr := planRun("acme/shop:kubeplan.yaml", "prod")
	if !strings.Contains(stderr, "::add-mask::"+secret) || !strings.Contains(stderr, "::warning file=shop/web/prod/settings.yaml,line=3,title=drift in shop-web-prod::") ||
		!strings.Contains(stderr, "::warning title=prune in shop-web-prod::") || !strings.Contains(stderr, "created the plan comment on pull request #7") {
		t.Errorf("stderr:\n%s", stderr)
	}
	summary := a.read(t, a.summary)
	if !strings.Contains(summary, "### kubeplan plan: 2 projects") || !strings.Contains(summary, "| `shop-api-prod` | `prod` | `shop-prod` | - | - | - | - | **failed** |") {
		t.Errorf("job summary:\n%s", summary)
	}
	outputs := a.read(t, a.outputs)
	if !strings.Contains(outputs, "has-changes<<") || !strings.Contains(outputs, "\ntrue\n") ||
		!strings.Contains(outputs, "\nTotal: 2 projects, 1 with changes, 1 failed: 0 to add, 1 to change, 1 to prune, 0 unchanged, 1 drifted.\n") {
		t.Errorf("outputs:\n%s", outputs)
	}

	// The same scope again (on another cluster's plans): the same comment.
	planRun("acme/shop:kubeplan.yaml", "prod-eu")
	// Another scope: a comment of its own.
	planRun("acme/shop:kubeplan.yaml staging", "staging")

	bodies := map[string]string{}
	for _, c := range srv.Comments(ghRepo, ghPR) {
		first, _, _ := strings.Cut(c.Body, "\n")
		bodies[first] = c.Body
		switch {
		case c.ID == human && c.Body != "LGTM", c.ID == single && !strings.HasSuffix(c.Body, "old single plan"):
			t.Errorf("comment %d changed: %q", c.ID, c.Body)
		}
	}
	if len(bodies) != 4 {
		t.Fatalf("want 4 comments (a person's, a single plan's, two runs'), got %d: %v", len(bodies), bodies)
	}
	prod := bodies[ghcomment.ScopeMarker("acme/shop:kubeplan.yaml")]
	staging := bodies[ghcomment.ScopeMarker("acme/shop:kubeplan.yaml staging")]
	if !strings.Contains(prod, "| `shop-web-prod` | `prod-eu` |") || !strings.Contains(staging, "| `shop-web-prod` | `staging` |") {
		t.Errorf("run comments:\n%s\n----\n%s", prod, staging)
	}
	for _, text := range []string{prod, staging, summary, stderr} {
		for line := range strings.SplitSeq(text, "\n") {
			if strings.Contains(line, secret) && !strings.HasPrefix(line, "::add-mask::") {
				t.Errorf("shows the secret: %q", line)
			}
		}
	}
	if !strings.Contains(prod, "value *** is too long") {
		t.Errorf("the error is not shown scrubbed:\n%s", prod)
	}
}

func TestRunFailedAndApplied(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	v := NewRun(a.env, &stderr, RunOptions{Token: ghToken, Comment: true, Scope: "acme/shop:kubeplan.yaml"})
	v.Loaded(secretObject())
	v.Failed(context.Background(), errors.New("kubeplan.yaml:4:3: project web: no such directory"))
	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, ghcomment.ScopeMarker("acme/shop:kubeplan.yaml")+"\n") ||
		!strings.Contains(cs[0].Body, "no such directory") {
		t.Errorf("comments: %+v", cs)
	}

	r := shopRun("prod")
	r.Projects[1].Status, r.Projects[1].Result = run.Applied, nil
	if err := v.Applied(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if s := a.read(t, a.summary); !strings.Contains(s, "### kubeplan apply: 2 projects") || strings.Contains(s, secret) {
		t.Errorf("job summary:\n%s", s)
	}
	if o := a.read(t, a.outputs); !strings.Contains(o, "\nfalse\n") || !strings.Contains(o, "\nTotal: 2 projects, 1 applied, 1 failed: 0 created, 0 configured, 0 pruned, 0 unchanged.\n") {
		t.Errorf("outputs:\n%s", o)
	}
}
