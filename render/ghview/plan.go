package ghview

import (
	"context"
	"io"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

// Plan is kubeplan plan's GitHub view: masks, drift and prune annotations,
// job summary, outputs (has-changes, summary) and the sticky pull-request
// comment.
//
// The comment is best effort: when it cannot be written (no permission, a
// fork's read-only token, the API down) the view prints a ::warning:: and
// the plan keeps its exit code. The plan itself succeeded, its output, job
// summary and outputs are there, and failing the job would block a pull
// request for a reason that has nothing to do with its manifests.
type Plan struct {
	step
	commenter
	cluster  string
	ns       string
	applySet string
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
	v := &Plan{step: newStep(env, stderr), commenter: newCommenter(env, o.Token, o.Comment, o.Version),
		cluster: o.Cluster, ns: o.Namespace, applySet: o.ApplySet}
	v.mask.add(append([]string{o.Token}, o.Secrets...)...)
	return v
}

// Loaded masks the Secret values of the manifests.
func (v *Plan) Loaded(objs []*manifest.Object) { v.mask.objects(objs) }

// Done reports a plan: drift and prune warnings, job summary, outputs,
// comment.
func (v *Plan) Done(ctx context.Context, pl *plan.Plan) error {
	return v.planned(ctx, v.step, ghcomment.Marker(v.cluster, v.ns, v.applySet), render.PlanAnnotations(pl),
		pl.HasChanges(), pl.Summary().String(), func(w io.Writer, o render.PlanOptions) error {
			return render.Plan(w, "markdown", pl, o)
		})
}

// Failed reports a plan that could not be made, so neither the job summary
// nor the pull request goes on showing an older plan as if it were current.
// The error is shown with every secret the view knows of replaced by ***.
func (v *Plan) Failed(ctx context.Context, planErr error) {
	v.failed(ctx, v.step, ghcomment.Marker(v.cluster, v.ns, v.applySet), v.ns, v.applySet, planErr)
}
