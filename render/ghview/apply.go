package ghview

import (
	"io"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// Apply is kubeplan apply's GitHub view of one apply made from flags: a
// thin wrapper that hands the result to Run as a Single run, whose
// Applied writes masks, job summary and the outputs has-changes (true
// when an object was created, configured, replaced or pruned) and summary
// (the "Apply: ..." line). It stays for callers that hold an
// ApplyReport, not a run.
type Apply struct {
	run          *Run
	ns, applySet string
}

// NewApply starts the view and registers the secrets in reach
// ($GITHUB_TOKEN, a cluster bearer token, the password of a --source URL)
// first.
func NewApply(env ghactions.Env, stderr io.Writer, namespace, applySet string, secrets ...string) *Apply {
	return &Apply{run: NewRun(env, stderr, RunOptions{Token: env("GITHUB_TOKEN"), Secrets: secrets,
		Single: true, Namespace: namespace, ApplySet: applySet}), ns: namespace, applySet: applySet}
}

// Loaded masks the Secret values of the manifests.
func (v *Apply) Loaded(objs []*manifest.Object) { v.run.Loaded(objs) }

// SavedPlan masks the Secret values a saved plan carries.
func (v *Apply) SavedPlan(p *plan.Plan) { v.run.SavedPlan(p) }

// Scrub hides every masked value in s.
func (v *Apply) Scrub(s string) string { return v.run.Scrub(s) }

// Applied reports an apply run (r.Result is nil when it failed before
// writing). Outputs are written only when the result says what happened.
func (v *Apply) Applied(r render.ApplyReport) error {
	status := run.Applied
	if r.Err != "" {
		status = run.Failed
	}
	v.run.Revision(r.Revision)
	return v.run.Applied(&run.Report{Version: run.FormatVersion, Single: true, Projects: []run.ProjectReport{
		{Namespace: v.ns, ApplySet: v.applySet, Status: status, Error: r.Err, Result: r.Result}}})
}

// Planned reports apply --drift=report: the plan, and whether applying
// would change anything.
func (v *Apply) Planned(pl *plan.Plan) error {
	return v.run.Planned(singleReport(v.ns, v.applySet, pl))
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
