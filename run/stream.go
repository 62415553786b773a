package run

import (
	"context"
	"errors"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/project"
)

// applyStream is Apply with ApplyOptions.Stream: each project is planned
// and applied in one step, after the projects it depends on were applied
// (so nothing of theirs is pending), and its plan and result are dropped
// once Done has seen them. At most PerCluster plans per cluster are held
// at once, whatever the number of projects.
func applyStream(ctx context.Context, ps []project.Project, o ApplyOptions) (*Report, error) {
	r := newReport(ps)
	cls := newClusters(o.Connect)
	var done doneFunc = o.Done
	err := schedule(ctx, ps, r.Projects, o.PerCluster, o.Halt, func(ctx context.Context, i int, _ []*ProjectReport) {
		pr := &r.Projects[i]
		pd := o.planOne(ctx, cls, pr, nil)
		if pr.Plan != nil && pr.Status != Failed {
			if err := errors.Join(apply.CheckReplaces(pr.Plan.Changes, o.Apply.Replace), apply.CheckOwners(pr.Plan, o.Apply.Adopt)); err != nil {
				pr.fail(err)
				pd.err = err
			}
		}
		o.applyOne(ctx, pr, pd)
		done.call(*pr)
		pr.Plan, pr.Result = nil, nil
	})
	for i := range r.Projects {
		if r.Projects[i].Status == Skipped {
			done.call(r.Projects[i])
		}
	}
	return r, err
}
