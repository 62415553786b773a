package render

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// A project's progress line says its status, or its plan's summary when
// it has changes.
func TestRunProgress(t *testing.T) {
	var b strings.Builder
	for _, c := range []struct {
		verb string
		p    run.ProjectReport
	}{
		{"planned", run.ProjectReport{Project: project.Project{Name: "shop-web-prod"}, Status: run.Changes, Plan: webProdPlan()}},
		{"planned", run.ProjectReport{Project: project.Project{Name: "shop-db-prod"}, Status: run.NoChanges, Plan: stagingPlan()}},
		{"applied", run.ProjectReport{Project: project.Project{Name: "shop-api-prod"}, Status: run.Failed}},
		{"applied", run.ProjectReport{Project: project.Project{Name: "shop-worker"}, Status: run.Applied}},
	} {
		if err := RunProgress(&b, c.verb, c.p); err != nil {
			t.Fatal(err)
		}
	}
	want := "kubeplan: planned shop-web-prod: " + strings.TrimSuffix(webProdPlan().Summary().String(), ".") + "\n" +
		"kubeplan: planned shop-db-prod: no-changes\n" +
		"kubeplan: applied shop-api-prod: failed\n" +
		"kubeplan: applied shop-worker: applied\n"
	if b.String() != want {
		t.Errorf("progress lines:\n%s\nwant:\n%s", b.String(), want)
	}
	if !strings.Contains(want, "Plan: ") || strings.Contains(want, ".\n") {
		t.Errorf("the fixture's summary is not a plan line without its stop: %q", want)
	}
}
