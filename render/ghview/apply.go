package ghview

import (
	"io"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

// Apply is kubeplan apply's GitHub view besides its output: masks, job
// summary and the outputs has-changes (true when an object was created,
// configured, replaced or pruned) and summary (the "Apply: ..." line).
type Apply struct {
	step
	ns, applySet string
}

// NewApply starts the view and registers the secrets in reach
// ($GITHUB_TOKEN, a cluster bearer token, the password of a --source URL)
// first.
func NewApply(env ghactions.Env, stderr io.Writer, namespace, applySet string, secrets ...string) *Apply {
	v := &Apply{step: newStep(env, stderr), ns: namespace, applySet: applySet}
	v.mask.add(append([]string{env("GITHUB_TOKEN")}, secrets...)...)
	return v
}

// Loaded masks the Secret values of the manifests.
func (v *Apply) Loaded(objs []*manifest.Object) { v.mask.objects(objs) }

// SavedPlan masks the Secret values a saved plan carries.
func (v *Apply) SavedPlan(p *plan.Plan) { v.mask.plan(p) }

// Scrub hides every masked value in s.
func (v *Apply) Scrub(s string) string { return v.mask.scrub(s) }

// Applied reports an apply run (r.Result is nil when it failed before
// writing). Outputs are written only when the result says what happened.
func (v *Apply) Applied(r render.ApplyReport) error {
	r.Namespace, r.ApplySet = v.ns, v.applySet
	r.Err = v.mask.scrub(r.Err)
	v.summary("kubeplan apply", func(w io.Writer, room int) error {
		return render.ApplyMarkdown(w, r, room)
	})
	if r.Result == nil {
		return nil
	}
	return v.outputs("has-changes", boolText(r.Result.Wrote()), "summary", render.ApplySummary(r.Result))
}

// Planned reports apply --drift=report: the plan, and whether applying
// would change anything.
func (v *Apply) Planned(pl *plan.Plan) error {
	v.summary("kubeplan apply", func(w io.Writer, room int) error {
		return render.Plan(w, "markdown", pl, render.PlanOptions{MaxBytes: room, SummaryHint: "the job log", LimitName: "the job summary's 1 MiB limit"})
	})
	return v.outputs("has-changes", boolText(pl.HasChanges()), "summary", pl.Summary().String())
}
