package ghview

import (
	"context"
	"io"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// Plan is kubeplan plan's GitHub view of one plan made from flags: a thin
// wrapper that hands the plan to Run as a Single run (see Run for what
// the view writes). It stays for callers that hold a plan, not a run.
type Plan struct {
	run          *Run
	ns, applySet string
}

// PlanOptions configure the plan view.
type PlanOptions struct {
	Token   string // GitHub token for the comment
	Comment bool   // comment on pull requests
	Version string // kubeplan's version
	// Secrets are other values to mask (a cluster token, a git password).
	Secrets []string
	// Cluster, Namespace and ApplySet name what the plan is about, for
	// the comment's marker and headings. Cluster is the kubeconfig
	// context ("" when the current one is used unnamed).
	Cluster, Namespace, ApplySet string
}

// NewPlan starts the view: before anything else is printed it registers
// the tokens kubeplan was given with ::add-mask::.
func NewPlan(env ghactions.Env, stderr io.Writer, o PlanOptions) *Plan {
	return &Plan{run: NewRun(env, stderr, RunOptions{Token: o.Token, Comment: o.Comment, Version: o.Version, Secrets: o.Secrets,
		Single: true, Cluster: o.Cluster, Namespace: o.Namespace, ApplySet: o.ApplySet}), ns: o.Namespace, applySet: o.ApplySet}
}

// Loaded masks the Secret values of the manifests.
func (v *Plan) Loaded(objs []*manifest.Object) { v.run.Loaded(objs) }

// Done reports a plan: drift and prune warnings, job summary, outputs,
// comment.
func (v *Plan) Done(ctx context.Context, pl *plan.Plan) error {
	return v.run.Done(ctx, SingleReport(v.ns, v.applySet, pl))
}

// Failed reports a plan that could not be made, so neither the job summary
// nor the pull request goes on showing an older plan as if it were current.
// The error is shown with every secret the view knows of replaced by ***.
func (v *Plan) Failed(ctx context.Context, planErr error) { v.run.Failed(ctx, planErr) }

// SingleReport is the Single run of one plan of the set namespace,
// applySet: what a plain invocation's run reports.
func SingleReport(namespace, applySet string, pl *plan.Plan) *run.Report {
	status := run.NoChanges
	if pl.HasChanges() {
		status = run.Changes
	}
	return &run.Report{Version: run.FormatVersion, Single: true, Projects: []run.ProjectReport{
		{Namespace: namespace, ApplySet: applySet, Status: status, Plan: pl}}}
}
