package ghview

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// singleOptions are a plain invocation's: one cluster, namespace and
// ApplySet.
func singleOptions() RunOptions {
	return RunOptions{Token: ghToken, Comment: true, Version: "0.1.0", Single: true, Cluster: "prod", Namespace: "shop-prod", ApplySet: "configmap/gitops-applyset"}
}

// A Single run is shown as one plan always was: the plan's own
// annotations (no project in their titles), its markdown in the job
// summary and in a comment marked by cluster, namespace and ApplySet,
// and its summary line as output.
func TestRunSingleDone(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	v := NewRun(a.env, &stderr, singleOptions())
	pl := shopRun("prod").Projects[1].Plan
	if err := v.Done(context.Background(), singleReport("shop-prod", "configmap/gitops-applyset", pl)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "::warning file=shop/web/prod/settings.yaml,line=3,title=drift::") ||
		!strings.Contains(stderr.String(), "::warning title=prune::applying deletes configmap/old") || strings.Contains(stderr.String(), " in ::") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	var md strings.Builder
	if err := render.Plan(&md, "markdown", pl, summaryOptions(1<<20-2)); err != nil {
		t.Fatal(err)
	}
	if s := a.read(t, a.summary); s != "\n"+md.String() {
		t.Errorf("job summary:\n%s\nwant the plan's markdown:\n%s", s, md.String())
	}
	if o := a.read(t, a.outputs); !strings.Contains(o, "\ntrue\n") || !strings.Contains(o, "\n"+pl.Summary().String()+"\n") {
		t.Errorf("outputs:\n%s", o)
	}
	cs := srv.Comments(ghRepo, ghPR)
	marker := ghcomment.Marker("prod", "shop-prod", "configmap/gitops-applyset")
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, marker+"\n### kubeplan plan: namespace `shop-prod`") {
		t.Fatalf("comments %+v, want one marked %s", cs, marker)
	}

	// The plan could not be made: the comment and the summary say so,
	// the error scrubbed.
	v.Loaded(secretObject())
	failed := run.ProjectReport{Status: run.Failed, Error: "dry-run: value " + secret + " is too long"}
	if err := v.Done(context.Background(), &run.Report{Single: true, Projects: []run.ProjectReport{failed}}); err != nil {
		t.Fatal(err)
	}
	cs = srv.Comments(ghRepo, ghPR)
	if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, marker+"\n### kubeplan plan: namespace `shop-prod`, ApplySet `configmap/gitops-applyset`\n\n> [!CAUTION]\n> The plan failed") ||
		!strings.Contains(cs[0].Body, "value *** is too long") {
		t.Errorf("comments after the failure: %+v", cs)
	}
}

// A Single apply's job summary is ApplyMarkdown's, in sync with the
// revision the view was given; its outputs are the apply's.
func TestRunSingleApplied(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	v := NewRun(a.env, &stderr, RunOptions{Single: true, Namespace: "shop-prod", ApplySet: "configmap/gitops-applyset"})
	rev := &source.Revision{SHA: "3f2c1e0aaaa", ShortSHA: "3f2c1e0", Subject: "price"}
	res := &apply.Result{Objects: []apply.ObjectResult{{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "settings"}, Outcome: apply.Created}}}
	v.Revision(rev)
	if err := v.Applied(context.Background(), &run.Report{Single: true, Projects: []run.ProjectReport{{Status: run.Applied, Result: res}}}); err != nil {
		t.Fatal(err)
	}
	rep := render.ApplyReport{Result: res, Revision: rev}
	var md strings.Builder
	rep.Namespace, rep.ApplySet = "shop-prod", "configmap/gitops-applyset"
	if err := render.ApplyMarkdown(&md, rep, 1<<20-2); err != nil {
		t.Fatal(err)
	}
	if s := a.read(t, a.summary); s != "\n"+md.String() || !strings.Contains(s, "In sync with `3f2c1e0` price") {
		t.Errorf("job summary:\n%s\nwant:\n%s", s, md.String())
	}
	if o := a.read(t, a.outputs); !strings.Contains(o, "\ntrue\n") || !strings.Contains(o, "\nApply: 1 created, 0 configured, 0 pruned, 0 unchanged.\n") {
		t.Errorf("outputs:\n%s", o)
	}
}

// singleReport is the Single run of one plan of the set namespace,
// applySet: what a plain invocation's run reports.
func singleReport(namespace, applySet string, pl *plan.Plan) *run.Report {
	status := run.NoChanges
	if pl.HasChanges() {
		status = run.Changes
	}
	return &run.Report{Version: run.FormatVersion, Single: true, Projects: []run.ProjectReport{
		{Namespace: namespace, ApplySet: applySet, Status: status, Plan: pl}}}
}
