package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

// planGitHub is what kubeplan plan does in GitHub mode besides printing the
// plan: masks, job summary, outputs (has-changes, summary) and the sticky
// pull-request comment. A nil *planGitHub (not GitHub mode) does nothing.
//
// The comment is best effort: when it cannot be written (no permission, a
// fork's read-only token, the API down) kubeplan prints a ::warning:: and
// the plan keeps its exit code. The plan itself succeeded, its output, job
// summary and outputs are there, and failing the job would block a pull
// request for a reason that has nothing to do with its manifests.
type planGitHub struct {
	s        streams
	mask     *masker
	run      ghactions.Run
	token    string
	comment  bool
	ns       string
	applySet string
}

// newPlanGitHub starts GitHub mode when GITHUB_ACTIONS=true: before
// anything else is printed it registers the tokens kubeplan was given (the
// GitHub token, a cluster bearer token) with ::add-mask::.
func newPlanGitHub(s streams, token string, comment bool, secrets ...string) *planGitHub {
	if !githubMode() {
		return nil
	}
	g := &planGitHub{s: s, mask: newMasker(s.err), run: ghactions.RunFromEnv(), token: token, comment: comment}
	g.mask.add(append([]string{token}, secrets...)...)
	return g
}

// scope names what the plan is about, for the marker and headings.
func (g *planGitHub) scope(ns, applySet string) {
	if g != nil {
		g.ns, g.applySet = ns, applySet
	}
}

// loaded masks the Secret values of the manifests.
func (g *planGitHub) loaded(objs []*manifest.Object) {
	if g != nil {
		g.mask.objects(objs)
	}
}

// done reports a plan: drift and prune warnings, job summary, outputs,
// comment.
func (g *planGitHub) done(ctx context.Context, pl *plan.Plan) error {
	if g == nil {
		return nil
	}
	for _, a := range render.PlanAnnotations(pl) {
		fmt.Fprintln(g.s.err, a.String())
	}
	stepSummary(g.s, "kubeplan plan", func(w io.Writer, room int) error {
		return render.Plan(w, "markdown", pl, render.PlanOptions{MaxBytes: room, SummaryHint: "the job log", LimitName: "the job summary's 1 MiB limit"})
	})
	if err := stepOutputs("has-changes", boolText(pl.HasChanges()), "summary", pl.Summary().String()); err != nil {
		return err
	}
	g.postComment(ctx, func(room int) (string, error) {
		var b strings.Builder
		err := render.Plan(&b, "markdown", pl, render.PlanOptions{MaxBytes: room, SummaryURL: g.run.URL()})
		return b.String(), err
	})
	return nil
}

// failed reports a plan that could not be made, so neither the job summary
// nor the pull request goes on showing an older plan as if it were current.
// The error is shown with every secret kubeplan knows of replaced by ***.
func (g *planGitHub) failed(ctx context.Context, planErr error) {
	var ee exitError
	if g == nil || errors.As(planErr, &ee) {
		return
	}
	text := g.mask.scrub(planErr.Error())
	stepSummary(g.s, "kubeplan plan", func(w io.Writer, room int) error {
		return render.PlanFailedMarkdown(w, g.ns, g.applySet, text, room)
	})
	g.postComment(ctx, func(room int) (string, error) {
		var b strings.Builder
		err := render.PlanFailedMarkdown(&b, g.ns, g.applySet, text, room)
		return b.String(), err
	})
}

// postComment creates or updates the pull request's plan comment for this
// namespace and ApplySet, with markdown made to fit in room bytes. It only
// acts on pull_request and pull_request_target events, with --comment and
// a token; problems are warnings (see planGitHub).
func (g *planGitHub) postComment(ctx context.Context, markdown func(room int) (string, error)) {
	if !g.comment || !g.run.IsPullRequest() {
		return
	}
	const title = "kubeplan plan"
	if g.token == "" {
		warn(g.s.err, title, "not commenting on the pull request: no token (set GITHUB_TOKEN: ${{ github.token }} or pass --github-token; --comment=false turns this off)")
		return
	}
	pr, err := g.run.PullRequestNumber()
	if err != nil {
		warn(g.s.err, title, "not commenting on the pull request: "+err.Error())
		return
	}
	marker := ghcomment.Marker(g.ns, g.applySet)
	// Bytes are never fewer than characters, so this fits GitHub's limit.
	md, err := markdown(ghcomment.MaxChars - len(marker) - 1)
	if err != nil {
		warn(g.s.err, title, fmt.Sprintf("cannot comment on pull request #%d: %v", pr, err))
		return
	}
	c := &ghcomment.Client{BaseURL: g.run.APIURL, Token: g.token, UserAgent: "kubeplan/" + kubeplanVersion()}
	res, err := c.Upsert(ctx, ghcomment.Target{Repository: g.run.Repository, Number: pr}, marker, ghcomment.Body(marker, md, g.run.URL()))
	if err != nil {
		warn(g.s.err, title, g.mask.scrub(err.Error()))
		return
	}
	verb := "updated"
	if res.Created {
		verb = "created"
	}
	fmt.Fprintf(g.s.err, "kubeplan: %s the plan comment on pull request #%d: %s\n", verb, pr, res.URL)
}
