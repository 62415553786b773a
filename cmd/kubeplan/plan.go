package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/startgc"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

func newPlanCmd(s streams) *cobra.Command {
	f := &arguments.Plan{}
	cmd := &cobra.Command{
		Use:   "plan [PATH...]",
		Short: "Show what apply would change in the cluster: server-side dry-run, field diff, drift, prune preview",
		RunE:  func(cmd *cobra.Command, args []string) error { return runPlan(cmd, s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "plan", true)
}

// runPlan plans the selected projects, or the one project the flags
// make, each against its own cluster, namespace and ApplySet (run.Plan),
// and shows the report as --output says and in GitHub mode.
func runPlan(cmd *cobra.Command, s streams, f *arguments.Plan, args []string) error {
	startgc.Raise(startgc.ClusterLimit) // it holds live objects too: no collection in a small run
	format, err := f.Check(args)
	if err != nil {
		return err
	}
	// SIGINT or SIGTERM stops every phase (loading, rendering, lint,
	// requests) within 2 s, with exit 1 and nothing written.
	ctx := s.stopOnSignal(cmd)
	t, err := run.Connect(f.Request(args, s.env(), s.opener(cmd, &f.Input, &f.Select), render.RunWatch{Source: s.err}))
	if err != nil {
		return err
	}
	var gh *ghview.Run
	if !f.Select.On() { // a plain invocation's masks come before anything else
		gh = s.ghRun(f.View(s.env(), kubeplanVersion(), t, nil))
	}
	p, err := t.Prepare(ctx)
	if f.Select.On() {
		gh = s.ghRun(f.View(s.env(), kubeplanVersion(), t, p))
	}
	if err != nil {
		return failedIn(ctx, gh, err)
	}
	w := s.watch(p, "planned", gh)
	defer w.Bar.Close()
	p.Options.Observer = w
	p.Options.Approver = s.approver(f.View(s.env(), kubeplanVersion(), t, p).Token)
	r, err := run.Plan(ctx, p.Projects, p.Options)
	if r, err = s.single(ctx, r, err); err == nil {
		err = context.Cause(ctx) // projects an interrupt stopped
	}
	if err != nil {
		return failedIn(ctx, gh, err)
	}
	return s.writing(ctx, func() error { return showPlan(ctx, s, f, format, r, gh) })
}

// showPlan saves the plan (--out) and shows it (showPlans), with exit 2
// under --detailed-exitcode when a plan has changes.
func showPlan(ctx context.Context, s streams, f *arguments.Plan, format string, r *run.Report, gh *ghview.Run) error {
	if err := run.Save(f.Out, r); err != nil {
		return err
	}
	if len(r.Projects) == 0 {
		render.NothingSelected(s.err, "plan")
	}
	return s.showPlans(ctx, format, r, gh, (*ghview.Run).Done, f.DetailedExitcode)
}

// showPlans shows a run's plans as format and in its GitHub view (gh's
// done, when gh is not nil), and returns the exit: 1 when a project
// failed or was skipped, else 2 when changesExit and a plan has changes.
func (s streams) showPlans(ctx context.Context, format string, r *run.Report, gh *ghview.Run, done func(*ghview.Run, context.Context, *run.Report) error, changesExit bool) error {
	if err := render.RunPlan(s.out, format, r, render.RunOptions{Color: format == "text" && s.color(s.out)}); err != nil {
		return err
	}
	if gh != nil {
		if err := done(gh, ctx, r); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	if changesExit && r.HasChanges() {
		return exitError{exitChanges}
	}
	return nil
}

// failedIn shows err in the GitHub view gh, when not nil, and returns
// it; an interrupted plan writes nothing.
func failedIn(ctx context.Context, gh *ghview.Run, err error) error {
	if gh != nil && ctx.Err() == nil {
		gh.Failed(ctx, err)
	}
	return err
}
