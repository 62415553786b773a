package ghview

import (
	"context"

	"github.com/kubeplan/kubeplan/run"
)

// DriftReport reports apply --drift=report: a plain invocation's plan as
// Planned does, a run over projects as Done does (annotations, job
// summary, outputs; apply never comments).
func (v *Run) DriftReport(ctx context.Context, r *run.Report) error {
	if r.Single {
		return v.Planned(r)
	}
	return v.Done(ctx, r)
}
