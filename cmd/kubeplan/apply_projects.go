package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

// applyProjects is one apply over projects (--project, --all,
// --changed-since): every project planned, one question for all of them,
// then each applied as its own ApplySet in dependsOn order.
func applyProjects(ctx context.Context, cmd *cobra.Command, s streams, f *applyFlags, args []string) error {
	deadline := time.Now().Add(f.timeout)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	pr, err := newProjectRun(ctx, cmd, s, &f.sel, &f.input, &f.git, &f.cluster, args)
	if err != nil {
		return err
	}
	pr.opts.Lookup = true // charts' lookups read each project's cluster, as helm upgrade does
	var gh *ghview.Run
	if s.githubMode() {
		gh = newRunView(s, "", false, pr, f.cluster.kube.BearerToken, f.git.password())
	}
	obs := runObserver{}
	if gh != nil {
		obs.loaded = gh.Loaded
	}
	if f.drift == "report" {
		obs.done = progressLines(s, "planned")
		pr.opts.Observer = obs
		r, err := run.Plan(ctx, pr.projects, pr.opts)
		if err != nil {
			return err
		}
		return reportPlans(ctx, s, "text", r, gh, true)
	}
	obs.done = progressLines(s, "applied")
	pr.opts.Observer = obs
	o := run.ApplyOptions{
		Options: pr.opts,
		Apply: apply.Options{FieldManager: f.cluster.fieldManager, Version: kubeplanVersion(), Concurrency: f.cluster.concurrency,
			AllowEmpty: f.allowEmpty, Wait: f.wait, Timeout: f.timeout, Deadline: deadline, Replace: f.replace,
			LockDuration: lockDuration(s), Adopt: f.cluster.adopt},
		Approve: func(r *run.Report) error {
			return ask(s, f, r.HasChanges(), func() error {
				return render.RunPlan(s.out, "text", r, render.RunOptions{Color: s.color(s.out)})
			})
		},
	}
	r, err := run.Apply(ctx, pr.projects, o)
	if err != nil {
		return err
	}
	if err := render.RunApply(s.out, f.output, r, render.RunOptions{Color: s.color(s.out)}); err != nil {
		return err
	}
	if gh != nil {
		if err := gh.Applied(r); err != nil {
			return err
		}
	}
	return r.Err()
}
