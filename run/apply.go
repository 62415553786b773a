package run

import (
	"context"
	"errors"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/guard"
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
// approved: then nothing was written, and a project that was not applied
// because Approve said no fails with its error.
//
// The plans are made under a context bound by Apply.Deadline; the writes
// and the records run under ctx, Apply.Deadline bounding them (apply.Options),
// so a run that timed out while planning is still recorded as failed.
func Apply(ctx context.Context, ps []project.Project, o ApplyOptions) (*Report, error) {
	if err := checkApprovals(ps, o.Approvals); err != nil {
		return newReport(ps), err
	}
	if o.Stream {
		return applyStream(ctx, ps, o)
	}
	planCtx, cancel := ctx, context.CancelFunc(func() {})
	if !o.Apply.Deadline.IsZero() {
		planCtx, cancel = context.WithDeadline(ctx, o.Apply.Deadline)
	}
	r, extra, err := o.plan(planCtx, ps)
	cancel()
	if err != nil {
		return r, err
	}
	for i := range r.Projects {
		if pr := &r.Projects[i]; pr.Plan != nil {
			extra[i].err = o.check(pr, extra[i])
		}
	}
	if o.Approve != nil {
		if err := o.Approve(r); err != nil {
			r.failPlanned(err)
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

// check refuses, before anything is written, a project's plan that
// replaces or takes over objects the options do not allow
// (apply.CheckReplaces, apply.CheckOwners), or that its guards refuse
// (apply.CheckGuards): the project fails.
func (o *ApplyOptions) check(pr *ProjectReport, pd planned) error {
	if err := o.checkSuspended(pr, pd); err != nil {
		pr.fail(err)
		return err
	}
	err := errors.Join(apply.CheckReplaces(pr.Plan.Changes, o.Apply.Replace), apply.CheckOwners(pr.Plan, o.Apply.Adopt))
	if !apply.InSync(pr.Plan, pr.Plan.Revision) {
		_, gerr := apply.CheckGuards(pr.Plan, o.applyOptions(pr, pd))
		err = errors.Join(err, gerr)
	}
	if err != nil {
		pr.fail(err)
	}
	return err
}

// applyOptions are the apply options of one planned project: the run's,
// with its ApplySet, revision, change windows and approvals.
func (o *ApplyOptions) applyOptions(pr *ProjectReport, pd planned) apply.Options {
	opts := o.Apply
	opts.ApplySet, opts.Revision = pd.parent, pr.Plan.Revision
	opts.Windows, opts.Approvals = pr.Project.Windows, pd.approvals
	opts.Health = o.HealthRules()
	return opts
}

// failPlanned fails with err every project that was planned and not yet
// failed: they were not applied (Approve said no).
func (r *Report) failPlanned(err error) {
	for i := range r.Projects {
		if r.Projects[i].Plan != nil && r.Projects[i].Status != Failed {
			r.Projects[i].fail(err)
		}
	}
}

// applyOne applies one planned project; a project that failed before
// writing is recorded as failed on its parent.
func (o *ApplyOptions) applyOne(ctx context.Context, pr *ProjectReport, pd planned) {
	var refusal *guard.Refusal
	if pr.Status == Failed && o.Saved != nil && errors.As(pd.err, &refusal) {
		// A saved plan refused for want of an approval is applied again
		// with one: recording the refusal would change the parent and
		// make the plan stale.
		return
	}
	if pr.Status == Failed {
		if pd.client != nil && pd.client.Ping(ctx) == nil {
			if err := RecordFailure(ctx, pd.client, pd.parent, o.Apply.FieldManager, pd.err); err != nil {
				pr.Error += "; " + err.Error()
				pr.Err = errors.Join(pr.Err, err)
			}
		}
		return
	}
	if pr.Plan == nil {
		return
	}
	opts := o.applyOptions(pr, pd)
	res, err := apply.Reconcile(ctx, pd.client, pr.Plan, opts)
	pr.Result = res
	if err != nil {
		pr.fail(err)
		return
	}
	pr.Status = Applied
}

// RecordFailure records err as the failure of a run on the ApplySet
// parent (apply.RecordFailure) when there is one and err is Recordable;
// the error is the record's.
func RecordFailure(ctx context.Context, c *kube.Client, parent *applyset.Parent, fieldManager string, err error) error {
	if parent == nil || !Recordable(err) {
		return nil
	}
	return apply.RecordFailure(ctx, c, *parent, fieldManager, err)
}

// ErrNotApproved is the answer to the question before writing when it is
// not "yes" (ApplyOptions.Approve).
var ErrNotApproved = errors.New("apply cancelled: nothing was written")

// Recordable says a run's failure is worth recording on the ApplySet
// parent: not when the person at the terminal said no (ErrNotApproved),
// nor when the cluster could not be reached (the record could not be
// written either), nor when the project's change windows are closed
// (the run waits: serve tries again every round), nor when the set is
// suspended (it gets no write).
func Recordable(err error) bool {
	var u *kube.UnreachableError
	return err != nil && !errors.Is(err, ErrNotApproved) && !errors.As(err, &u) && !windowOnly(err) && !suspended(err)
}

// windowOnly reports a refusal for closed change windows alone: the run
// waits for them, it did not fail.
func windowOnly(err error) bool {
	var r *guard.Refusal
	return errors.As(err, &r) && r.WindowOnly()
}
