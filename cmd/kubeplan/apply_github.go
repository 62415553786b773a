package main

import (
	"errors"
	"io"
	"os"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

// applyGitHub is what kubeplan apply does in GitHub mode besides its
// output: masks, job summary and the outputs has-changes (true when an
// object was created, configured or pruned) and summary (the "Apply: ..."
// line). A nil *applyGitHub (not GitHub mode) does nothing.
type applyGitHub struct {
	s        streams
	mask     *masker
	ns       string
	applySet string
}

// newApplyGitHub starts GitHub mode when GITHUB_ACTIONS=true and registers
// the tokens in reach ($GITHUB_TOKEN, a cluster bearer token, the password
// of a --source URL) first.
func newApplyGitHub(s streams, ns string, as *applyset.Parent, secrets ...string) *applyGitHub {
	if !githubMode() {
		return nil
	}
	g := &applyGitHub{s: s, mask: newMasker(s.err), ns: ns}
	if as != nil {
		g.applySet = as.String()
	}
	g.mask.add(append([]string{os.Getenv("GITHUB_TOKEN")}, secrets...)...)
	return g
}

func (g *applyGitHub) loaded(objs []*manifest.Object) {
	if g != nil {
		g.mask.objects(objs)
	}
}

func (g *applyGitHub) savedPlan(p *plan.Plan) {
	if g != nil && p != nil {
		g.mask.plan(p)
	}
}

// applied reports an apply (res may be nil when it failed before writing)
// and its error. Outputs are written only when res says what happened.
func (g *applyGitHub) applied(res *apply.Result, rev *manifest.Revision, applyErr error) error {
	var ee exitError
	if g == nil || errors.As(applyErr, &ee) {
		return nil
	}
	r := render.ApplyReport{Namespace: g.ns, ApplySet: g.applySet}
	if rev != nil {
		r.Revision, r.Subject = rev.ShortSHA, rev.Subject
	}
	if applyErr != nil {
		r.Err = g.mask.scrub(applyErr.Error())
	}
	changed := false
	if res != nil {
		for _, o := range res.Objects {
			r.Objects = append(r.Objects, render.ApplyObject{Object: o.Ref.String(), Outcome: string(o.Outcome)})
			changed = changed || o.Outcome != apply.Unchanged
		}
	}
	stepSummary(g.s, "kubeplan apply", func(w io.Writer, room int) error {
		return render.ApplyMarkdown(w, r, room)
	})
	if res == nil {
		return nil
	}
	return stepOutputs("has-changes", boolText(changed), "summary", render.ApplySummary(r.Objects))
}

// planned reports apply --drift=report: the plan, and whether applying
// would change anything.
func (g *applyGitHub) planned(pl *plan.Plan) error {
	if g == nil {
		return nil
	}
	stepSummary(g.s, "kubeplan apply", func(w io.Writer, room int) error {
		return render.Plan(w, "markdown", pl, render.PlanOptions{MaxBytes: room, SummaryHint: "the job log", LimitName: "the job summary's 1 MiB limit"})
	})
	return stepOutputs("has-changes", boolText(pl.HasChanges()), "summary", pl.Summary().String())
}
