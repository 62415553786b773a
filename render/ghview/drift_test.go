package ghview

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
)

// apply --drift=report: a plain invocation's plan goes to the job summary
// and outputs without annotations (Planned); a run over projects is shown
// as a plan over projects (Done: annotations too). Apply never comments.
func TestDriftReport(t *testing.T) {
	srv := githubtest.New(t, ghRepo, ghToken)
	a := newActionsEnv(t, srv)
	var stderr strings.Builder
	o := singleOptions()
	o.Comment = false
	pl := shopRun("prod").Projects[1].Plan
	if err := NewRun(a.env, &stderr, o).DriftReport(context.Background(), singleReport("shop-prod", "configmap/gitops-applyset", pl)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "::warning") {
		t.Errorf("a plain drift report annotated:\n%s", stderr.String())
	}
	if out := a.read(t, a.outputs); !strings.Contains(out, "\ntrue\n") || !strings.Contains(out, pl.Summary().String()) {
		t.Errorf("outputs:\n%s", out)
	}
	stderr.Reset()
	if err := NewRun(a.env, &stderr, RunOptions{Token: ghToken}).DriftReport(context.Background(), shopRun("prod")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "title=drift") {
		t.Errorf("a drift report over projects has no drift annotation:\n%s", stderr.String())
	}
	if cs := srv.Comments(ghRepo, ghPR); len(cs) != 0 {
		t.Errorf("apply commented: %+v", cs)
	}
}
