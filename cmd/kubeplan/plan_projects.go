package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

// planProjects is plan over projects (--project, --all, --changed-since):
// every project planned against its own cluster, namespace and ApplySet;
// a section each, a total, one pull-request comment.
func planProjects(ctx context.Context, cmd *cobra.Command, s streams, f *planFlags, format string, args []string) error {
	var gh *ghview.Run
	pr, err := newProjectRun(ctx, cmd, s, &f.sel, &f.input, &f.git, &f.cluster, args)
	if s.githubMode() {
		gh = newRunView(s, f.githubToken, f.comment, pr, f.cluster.Kube.BearerToken, f.git.Password())
	}
	if err != nil {
		return failedIn(ctx, gh, err)
	}
	obs := runObserver{done: progressLines(s, "planned")}
	// Charts' lookups read each project's cluster, without the Secrets' data.
	pr.opts.Lookup, pr.opts.Plan.SecretDataWithheld = true, true
	if gh != nil {
		obs.loaded = gh.Loaded
	}
	pr.opts.Observer = obs
	r, err := run.Plan(ctx, pr.projects, pr.opts)
	if err == nil {
		err = context.Cause(ctx) // projects an interrupt stopped
	}
	if err != nil {
		return failedIn(ctx, gh, err)
	}
	return s.writing(ctx, func() error {
		if f.out != "" {
			if err := run.SaveDir(f.out, r); err != nil {
				return err
			}
		}
		if len(r.Projects) == 0 {
			fmt.Fprintln(s.err, "kubeplan: no project selected: nothing to plan")
		}
		return reportPlans(ctx, s, format, r, gh, f.detailedExitcode)
	})
}

// failedIn shows err in the GitHub view gh, when not nil, and returns
// it; an interrupted plan writes nothing.
func failedIn(ctx context.Context, gh *ghview.Run, err error) error {
	if gh != nil && ctx.Err() == nil {
		gh.Failed(ctx, err)
	}
	return err
}

// reportPlans shows a run's plans as format and in its GitHub view (gh,
// when in GitHub Actions), and returns the exit: 1 when a project failed
// or was skipped, else 2 when changesExit and a plan has changes.
func reportPlans(ctx context.Context, s streams, format string, r *run.Report, gh *ghview.Run, changesExit bool) error {
	if err := render.RunPlan(s.out, format, r, render.RunOptions{Color: format == "text" && s.color(s.out)}); err != nil {
		return err
	}
	if gh != nil {
		if err := gh.Done(ctx, r); err != nil {
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
