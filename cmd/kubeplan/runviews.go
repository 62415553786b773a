package main

import (
	"context"
	"errors"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

// connected is the Connector of a plain invocation: the client its
// cluster flags made.
func connected(c *kube.Client) run.Connector {
	return func(project.Project) (*kube.Client, string, error) { return c, "", nil }
}

// runObserver is how the command line watches a run: loaded sees the
// objects (GitHub mode masks Secret values), done each project's end
// (progress lines over projects), view the plan of a plain invocation
// (its progress bar); each may be nil.
type runObserver struct {
	run.Quiet
	loaded func([]*manifest.Object)
	done   func(run.ProjectReport)
	view   *render.ProgressView
}

// Loaded passes the objects to loaded.
func (o runObserver) Loaded(objs []*manifest.Object) {
	if o.loaded != nil {
		o.loaded(objs)
	}
}

// ProjectDone passes the report to done.
func (o runObserver) ProjectDone(pr run.ProjectReport) {
	if o.done != nil {
		o.done(pr)
	}
}

// Planning moves the progress bar.
func (o runObserver) Planning(_ project.Project, done, total int) {
	if o.view != nil {
		o.view.Planning(done, total)
	}
}

// singleReport is the report of a plain invocation's run (Single), or
// the error of its one project (the interrupt's when it never started);
// lint's errors are shown on stderr first.
func singleReport(ctx context.Context, s streams, r *run.Report, err error) (*run.Report, error) {
	if err != nil {
		return nil, err
	}
	r.Single = true
	err = singleErr(ctx, r.Projects[0])
	if err == nil {
		return r, nil
	}
	var le *run.LintError
	if errors.As(err, &le) {
		_ = render.Lint(s.err, "text", le.Report, render.LintOptions{Color: s.color(s.err)})
	}
	return nil, err
}

// singleErr is the error of a plain invocation's one project: its own,
// or the interrupt's when it never started.
func singleErr(ctx context.Context, pr run.ProjectReport) error {
	if pr.Status != run.Skipped {
		return pr.Err
	}
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return errors.New(pr.Error)
}

// showSingleStatus shows a plain invocation's status as format.
func showSingleStatus(s streams, format string, r *run.Report) error {
	return render.RunStatus(s.out, format, r)
}

// showSinglePlan shows a plain invocation's plan as format, and in its
// GitHub view when gh is not nil: the run views render a Single report
// as a single plan.
func showSinglePlan(ctx context.Context, s streams, format string, r *run.Report, gh *ghview.Run) error {
	if err := render.RunPlan(s.out, format, r, render.RunOptions{Color: format == "text" && s.color(s.out)}); err != nil {
		return err
	}
	if gh != nil {
		return gh.Done(ctx, r)
	}
	return nil
}
