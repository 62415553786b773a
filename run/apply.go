package run

import (
	"context"
	"errors"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/project"
)

// ApplyOptions configure Apply.
type ApplyOptions struct {
	Options
	// Apply holds what every project's apply shares (field manager,
	// version, wait, timeout, deadline, replace, adopt, ...); ApplySet and
	// Revision are set per project.
	Apply apply.Options
	// Approve, when set, is asked once every project is planned and before
	// anything is written, with the plans; an error stops the run there.
	Approve func(*Report) error
	// Stream applies each project right after its own plan instead of
	// planning all first (Approve is not asked), and keeps only each
	// project's status, error and findings in the report: the Observer's
	// ProjectDone sees its plan and result, which are then dropped. A
	// long-running reconciler over many projects (kubeplan serve) holds
	// few plans at a time.
	Stream bool
}

// Apply plans every project (see Plan), asks Approve, then applies each
// project's plan with apply.Reconcile (its lock, freshness check, ordered
// writes, prune, health wait and record), in dependsOn order and bounded
// per cluster. Each project is its own ApplySet: one whose lint, plan or
// apply failed writes nothing more, is recorded as failed on its parent
// when it has one, and the projects that depend on it are skipped; the
// others go on. The error is for a run that could not start or was not
// approved: then nothing was written.
func Apply(ctx context.Context, ps []project.Project, o ApplyOptions) (*Report, error) {
	if o.Stream {
		return applyStream(ctx, ps, o)
	}
	r, extra, err := o.plan(ctx, ps)
	if err != nil {
		return r, err
	}
	for i := range r.Projects {
		pr := &r.Projects[i]
		if pr.Plan == nil {
			continue
		}
		if err := errors.Join(apply.CheckReplaces(pr.Plan.Changes, o.Apply.Replace), apply.CheckOwners(pr.Plan, o.Apply.Adopt)); err != nil {
			pr.fail(err)
			extra[i].err = err
		}
	}
	if o.Approve != nil {
		if err := o.Approve(r); err != nil {
			return r, err
		}
	}
	err = schedule(ctx, ps, r.Projects, o.PerCluster, nil, func(ctx context.Context, i int, _ []*ProjectReport) {
		pr := &r.Projects[i]
		o.applyOne(ctx, pr, extra[i])
		o.done(*pr)
	})
	return r, err
}

// applyOne applies one planned project; a project that failed before
// writing is recorded as failed on its parent.
func (o *ApplyOptions) applyOne(ctx context.Context, pr *ProjectReport, pd planned) {
	if pr.Status == Failed {
		if pd.parent != nil && pd.client != nil && Recordable(pd.err) && pd.client.Ping(ctx) == nil {
			if err := apply.RecordFailure(ctx, pd.client, *pd.parent, o.Apply.FieldManager, pd.err); err != nil {
				pr.Error += "; " + err.Error()
			}
		}
		return
	}
	if pr.Plan == nil {
		return
	}
	opts := o.Apply
	opts.ApplySet, opts.Revision = pd.parent, pr.Plan.Revision
	res, err := apply.Reconcile(ctx, pd.client, pr.Plan, opts)
	pr.Result = res
	if err != nil {
		pr.fail(err)
		return
	}
	pr.Status = Applied
}

// ErrNotApproved is the answer to the question before writing when it is
// not "yes" (ApplyOptions.Approve).
var ErrNotApproved = errors.New("apply cancelled: nothing was written")

// Recordable says a run's failure is worth recording on the ApplySet
// parent: not when the person at the terminal said no (ErrNotApproved),
// nor when the cluster could not be reached (the record could not be
// written either).
func Recordable(err error) bool {
	var u *kube.UnreachableError
	return err != nil && !errors.Is(err, ErrNotApproved) && !errors.As(err, &u)
}
