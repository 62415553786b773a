package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

// applyProjects is one apply over projects (--project, --all,
// --changed-since): every project planned, one question for all of them,
// then each applied as its own ApplySet in dependsOn order.
func applyProjects(ctx context.Context, cmd *cobra.Command, s streams, f *applyFlags, args []string) error {
	deadline := time.Now().Add(f.timeout)
	planCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	pr, err := newProjectRun(planCtx, cmd, s, &f.sel, &f.input, &f.git, &f.cluster, args)
	if err != nil {
		return err
	}
	pr.opts.Lookup = true // charts' lookups read each project's cluster, as helm upgrade does
	var gh *ghview.Run
	obs := runObserver{}
	if s.githubMode() {
		gh = newRunView(s, "", false, pr, f.cluster.Kube.BearerToken, f.git.Password())
		obs.loaded = gh.Loaded
	}
	if f.drift == "report" {
		obs.done, pr.opts.Observer = progressLines(s, "planned"), obs
		r, err := run.Plan(planCtx, pr.projects, pr.opts)
		if err != nil {
			return err
		}
		return reportPlans(ctx, s, "text", r, gh, true)
	}
	obs.done, pr.opts.Observer = progressLines(s, "applied"), obs
	o := run.ApplyOptions{Options: pr.opts, Apply: f.applyOptions(s, deadline, nil), Approve: f.approve(s, nil)}
	r, err := run.Apply(ctx, pr.projects, o)
	if err != nil {
		return err
	}
	return showApplied(s, f.output, r, gh)
}

// showApplied shows a run over projects as format and in its GitHub view
// (gh, when in GitHub Actions), and returns its error.
func showApplied(s streams, format string, r *run.Report, gh *ghview.Run) error {
	if err := render.RunApply(s.out, format, r, render.RunOptions{Color: s.color(s.out)}); err != nil {
		return err
	}
	if gh != nil {
		if err := gh.Applied(r); err != nil {
			return err
		}
	}
	return r.Err()
}
