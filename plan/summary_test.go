package plan_test

import (
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestSummaryRelease(t *testing.T) {
	p := &plan.Plan{Changes: []plan.Change{{Action: plan.Release}, {Action: plan.Unchanged}}}
	if !p.HasChanges() {
		t.Error("a release is a change")
	}
	if got, want := p.Summary().String(), "Plan: 0 to add, 0 to change, 0 to prune, 1 to release, 1 unchanged."; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	p.Changes = p.Changes[1:]
	if got, want := p.Summary().String(), "Plan: 0 to add, 0 to change, 0 to prune, 1 unchanged."; got != want {
		t.Errorf("summary without releases %q, want %q", got, want)
	}
}
