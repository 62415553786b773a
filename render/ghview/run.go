package ghview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// Run is kubeplan's GitHub view of plan and apply: masks, the guard,
// drift and prune annotations of every project, one job summary, the
// outputs has-changes, summary, needs-approval and denied, and for a
// plan on a pull request ONE sticky comment.
//
// A run over many projects (--all, --project, --changed-since) has one
// comment per scope and the "Total: ..." line as summary. A run of one
// project built from flags (RunOptions.Single, run.Report.Single) is shown
// as one plan always was: one comment per cluster, namespace and
// ApplySet, the plan's own annotations, markdown and summary line.
//
// The comment is best effort: when it cannot be written (no permission, a
// fork's read-only token, the API down) the view prints a ::warning:: and
// the plan keeps its exit code. The plan itself succeeded, its output, job
// summary and outputs are there, and failing the job would block a pull
// request for a reason that has nothing to do with its manifests.
type Run struct {
	step
	commenter
	marker string
	// ns and applySet name a Single run's set in its failed report and
	// apply summary; "" for a run over many projects.
	ns, applySet string
	rev          *source.Revision
	applyComment bool
	mu           sync.Mutex // Loaded runs in every project's goroutine
}

// RunOptions configure the run view.
type RunOptions struct {
	Token   string // GitHub token for the comment
	Comment bool   // comment on pull requests with the plan
	// ApplyComment updates, on a pull request, the comment the plan of the
	// same set (or scope) wrote with the applied run and why it failed
	// (apply's --comment; Applied).
	ApplyComment bool
	Version      string // kubeplan's version
	// Secrets are other values to mask (cluster tokens, a git password).
	Secrets []string
	// Scope names what a run over many projects covers, for the comment's
	// marker (ghcomment.ScopeMarker): the repository and the config file,
	// e.g. "acme/shop:kubeplan.yaml", plus a name when one pull request has
	// several runs of the same config ("acme/shop:kubeplan.yaml prod").
	// Runs with the same scope update the same comment; the caller builds
	// it.
	Scope string
	// Single is a run of one project built from flags: its comment's
	// marker (ghcomment.Marker) and headings name Cluster (the kubeconfig
	// context, "" when the current one is used unnamed), Namespace and
	// ApplySet, and Scope is not used.
	Single                       bool
	Cluster, Namespace, ApplySet string
}

// NewRun starts the view: before anything else is printed it registers
// the tokens kubeplan was given with ::add-mask::.
func NewRun(env ghactions.Env, stderr io.Writer, o RunOptions) *Run {
	v := &Run{step: newStep(env, stderr), commenter: newCommenter(env, o.Token, o.Comment, o.Version), applyComment: o.ApplyComment,
		marker: ghcomment.ScopeMarker(o.Scope)}
	if o.Single {
		v.marker, v.ns, v.applySet = ghcomment.Marker(o.Cluster, o.Namespace, o.ApplySet), o.Namespace, o.ApplySet
	}
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

// SavedPlan masks the Secret values a saved plan carries (kubeplan apply
// of a plan file, kubeplan comment merging the plan files of separate
// jobs).
func (v *Run) SavedPlan(p *plan.Plan) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.mask.plan(p)
}

// Scrub hides every masked value in s.
func (v *Run) Scrub(s string) string { return v.mask.scrub(s) }

// Revision sets the commit the run applied, for a Single apply's "In sync
// with" line in the job summary.
func (v *Run) Revision(rev *source.Revision) { v.rev = rev }

// Done reports a planned run: annotations, job summary, outputs, comment.
// Projects that failed are shown as failed; the caller decides the exit
// code. A Single run whose project has no plan is reported as Failed.
func (v *Run) Done(ctx context.Context, r *run.Report) error {
	if r.Single && len(r.Projects) == 1 && r.Projects[0].Plan == nil {
		p := r.Projects[0]
		err := p.Err
		if err == nil {
			err = errors.New(p.Error)
		}
		v.Failed(ctx, err)
		return nil
	}
	r = v.scrubbed(r)
	return v.planned(ctx, v.step, v.marker, render.RunAnnotations(r), planOutputs(r),
		func(w io.Writer, o render.RunOptions) error { return render.RunPlan(w, "markdown", r, o) })
}

// Failed reports a run that could not start or finish as a whole (a bad
// config, no projects, a Single run's plan that could not be made), so
// that neither the job summary nor the pull request goes on showing older
// plans as current. The error is shown with every secret the view knows
// of replaced by ***.
func (v *Run) Failed(ctx context.Context, runErr error) {
	v.failed(ctx, v.step, v.marker, v.ns, v.applySet, runErr)
}

// Planned reports apply --drift=report: the plans in the job summary, and
// the outputs has-changes (whether applying would change anything),
// summary, needs-approval and denied (planOutputs).
func (v *Run) Planned(r *run.Report) error {
	r = v.scrubbed(r)
	v.summary("kubeplan apply", func(w io.Writer, room int) error {
		return render.RunPlan(w, "markdown", r, summaryOptions(room))
	})
	return v.outputs(planOutputs(r)...)
}

// planOutputs are the step outputs of a planned run: has-changes
// (whether applying would change anything), summary, needs-approval
// (whether a rule over a plan waits for an approval: apply refuses it
// until one is given) and denied (whether a rule denies a plan).
func planOutputs(r *run.Report) []string {
	g := render.RunGuards(r)
	return []string{"has-changes", boolText(r.HasChanges()), "summary", render.RunSummary(r),
		"needs-approval", boolText(g.NeedsApproval()), "denied", boolText(g.Denied > 0)}
}

// Applied reports an applied run: an ::error:: annotation at the manifest
// line of every workload whose health wait failed (render.ApplyAnnotations),
// the job summary (with why each failed), the outputs has-changes (true
// when a project wrote an object) and summary, and on a pull request the
// sticky comment the plan of the same set (or scope) wrote, now showing
// the apply and why it failed: best effort, as the plan's comment is. A
// Single run's outputs are written only when its result says what
// happened.
func (v *Run) Applied(ctx context.Context, r *run.Report) error {
	r = v.scrubbed(r)
	for _, a := range render.ApplyAnnotations(r) {
		v.command(a)
	}
	v.summary("kubeplan apply", func(w io.Writer, room int) error {
		return render.RunApplyMarkdown(w, r, render.RunOptions{MaxBytes: room, Revision: v.rev})
	})
	err := v.appliedOutputs(r)
	c := v.commenter
	c.comment = v.applyComment
	c.post(ctx, v.step, v.marker, "apply", func(room int) (string, error) {
		var b strings.Builder
		err := render.RunApplyMarkdown(&b, r, render.RunOptions{MaxBytes: room, Revision: v.rev, LimitName: commentLimit})
		return b.String(), err
	})
	return err
}

// appliedOutputs writes the outputs has-changes, summary,
// needs-approval (a plan's verdict waits for an approval, or the apply
// withheld what one is about) and denied of an applied run; nothing for
// a Single run without a result.
func (v *Run) appliedOutputs(r *run.Report) error {
	wrote := r.Total().WithChanges > 0
	if r.Single && len(r.Projects) == 1 {
		if r.Projects[0].Result == nil {
			return nil
		}
		wrote = r.Projects[0].Result.Wrote()
	}
	g := render.RunGuards(r)
	return v.outputs("has-changes", boolText(wrote), "summary", render.RunApplySummary(r),
		"needs-approval", boolText(g.NeedsApproval() || pendingAfterApply(r)), "denied", boolText(g.Denied > 0))
}

// commentLimit names a pull-request comment's limit in the note saying
// what was left out.
var commentLimit = fmt.Sprintf("GitHub's %d-character comment limit", ghcomment.MaxChars)

// scrubbed is r with every masked value hidden in the projects' errors,
// for the summary and the comment, which the runner does not mask. A
// Single run's set is named as the view was told (RunOptions).
func (v *Run) scrubbed(r *run.Report) *run.Report {
	cp := *r
	cp.Projects = slices.Clone(r.Projects)
	for i := range cp.Projects {
		cp.Projects[i].Error = v.mask.scrub(cp.Projects[i].Error)
		cp.Projects[i].Result = scrubbedResult(cp.Projects[i].Result, v.mask.scrub)
		if r.Single {
			cp.Projects[i].Namespace, cp.Projects[i].ApplySet = v.ns, v.applySet
		}
	}
	return &cp
}

// pendingAfterApply reports whether an apply of the run went on without
// what a verdict waiting for an approval is about (serve's withheld
// prunes).
func pendingAfterApply(r *run.Report) bool {
	for _, p := range r.Projects {
		if p.Result != nil && len(p.Result.Pending) > 0 {
			return true
		}
	}
	return false
}
