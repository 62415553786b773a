package ghview

import (
	"context"
	"io"
	"slices"
	"sync"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// Run is the GitHub view of a run over many projects (plan or apply with
// --all, --project, --changed-since): masks, drift and prune annotations
// of every project, one job summary, the outputs has-changes and summary
// (the "Total: ..." line), and for a plan on a pull request ONE sticky
// comment for the whole run. Like Plan's, the comment is best effort.
type Run struct {
	step
	commenter
	marker string
	mu     sync.Mutex // Loaded runs in every project's goroutine
}

// RunOptions configure the run view.
type RunOptions struct {
	Token   string // GitHub token for the comment
	Comment bool   // comment on pull requests
	Version string // kubeplan's version
	// Secrets are other values to mask (cluster tokens, a git password).
	Secrets []string
	// Scope names what the run covers, for the comment's marker
	// (ghcomment.ScopeMarker): the repository and the config file, e.g.
	// "acme/shop:kubeplan.yaml", plus a name when one pull request has
	// several runs of the same config ("acme/shop:kubeplan.yaml prod").
	// Runs with the same scope update the same comment; the caller builds
	// it.
	Scope string
}

// NewRun starts the view: before anything else is printed it registers
// the tokens kubeplan was given with ::add-mask::.
func NewRun(env ghactions.Env, stderr io.Writer, o RunOptions) *Run {
	v := &Run{step: newStep(env, stderr), commenter: newCommenter(env, o.Token, o.Comment, o.Version),
		marker: ghcomment.ScopeMarker(o.Scope)}
	v.mask.add(append([]string{o.Token}, o.Secrets...)...)
	return v
}

// Loaded masks the Secret values of a project's manifests; projects load
// concurrently, so it may be called from several goroutines.
func (v *Run) Loaded(objs []*manifest.Object) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.mask.objects(objs)
}

// SavedPlan masks the Secret values a saved plan carries (kubeplan
// comment merging the plan files of separate jobs).
func (v *Run) SavedPlan(p *plan.Plan) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.mask.plan(p)
}

// Done reports a planned run: annotations, job summary, outputs, comment.
// Projects that failed are shown as failed; the caller decides the exit
// code.
func (v *Run) Done(ctx context.Context, r *run.Report) error {
	r = v.scrubbed(r)
	return v.planned(ctx, v.step, v.marker, render.RunAnnotations(r), r.HasChanges(), render.RunSummary(r),
		func(w io.Writer, o render.RunOptions) error { return render.RunPlan(w, "markdown", r, o) })
}

// Failed reports a run that could not start or finish as a whole (a bad
// config, no projects), so that neither the job summary nor the pull
// request goes on showing older plans as current.
func (v *Run) Failed(ctx context.Context, runErr error) {
	v.failed(ctx, v.step, v.marker, "", "", runErr)
}

// Applied reports an applied run: job summary and the outputs has-changes
// (true when a project wrote an object) and summary.
func (v *Run) Applied(r *run.Report) error {
	r = v.scrubbed(r)
	v.summary("kubeplan apply", func(w io.Writer, room int) error {
		return render.RunApplyMarkdown(w, r, room)
	})
	return v.outputs("has-changes", boolText(r.Total().WithChanges > 0), "summary", render.RunApplySummary(r))
}

// scrubbed is r with every masked value hidden in the projects' errors,
// for the summary and the comment, which the runner does not mask.
func (v *Run) scrubbed(r *run.Report) *run.Report {
	cp := *r
	cp.Projects = slices.Clone(r.Projects)
	for i := range cp.Projects {
		cp.Projects[i].Error = v.mask.scrub(cp.Projects[i].Error)
	}
	return &cp
}
