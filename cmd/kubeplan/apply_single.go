package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// singleApply is a plain apply (no --all, --project, --changed-since):
// the one project its flags make, or a saved plan, run by run.Apply.
type singleApply struct {
	cmd    *cobra.Command
	s      streams
	f      *applyFlags
	args   []string
	client *kube.Client
	as     *applyset.Parent
	gh     *ghview.Run
}

func newSingleApply(cmd *cobra.Command, s streams, f *applyFlags, args []string) (*singleApply, error) {
	client, as, err := connect(&f.cluster)
	if err != nil {
		return nil, err
	}
	a := &singleApply{cmd: cmd, s: s, f: f, args: args, client: client, as: as}
	if s.githubMode() {
		a.gh = ghview.NewRun(s.env(), s.err, ghview.RunOptions{Token: s.env()("GITHUB_TOKEN"), Single: true,
			Secrets: []string{f.cluster.Token(), f.git.Password()}, Namespace: client.Namespace, ApplySet: applySetName(as)})
	}
	return a, nil
}

// once is one run: read the source (or the saved plan), then run.Apply
// (lint, plan, ask, apply) or, with --drift=report, run.Plan; every
// outcome is shown by the run views. A run that fails before its project
// starts is recorded on the ApplySet parent.
func (a *singleApply) once(ctx context.Context) error {
	deadline := time.Now().Add(a.f.timeout)
	planCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	view := a.s.progress()
	defer view.Close()
	opts, rev, err := a.options(planCtx, view)
	if a.f.drift == "report" {
		if err != nil {
			return err // report mode records nothing
		}
		return a.report(planCtx, opts)
	}
	var r *run.Report
	if err != nil {
		err = errors.Join(err, run.RecordFailure(ctx, a.client, a.as, a.f.cluster.FieldManager, err))
		r = &run.Report{Version: run.FormatVersion, Single: true, Projects: []run.ProjectReport{{Status: run.Failed, Error: err.Error(), Err: err}}}
	} else {
		o := run.ApplyOptions{Options: opts, Apply: a.f.applyOptions(a.s, deadline, view)}
		if opts.Saved == nil { // a saved plan was reviewed when it was made
			o.Approve = a.f.approve(a.s, view)
		}
		r, _ = run.Apply(ctx, []project.Project{{ApplySet: a.f.cluster.ApplySet}}, o)
	}
	view.Close() // the bar ends before the result is printed
	return a.show(ctx, r, rev)
}

// options are the run's options: its workspace of one project, or the
// saved plan named by args (Options.Saved). rev is the revision read.
func (a *singleApply) options(ctx context.Context, view *render.ProgressView) (run.Options, *source.Revision, error) {
	obs := runObserver{view: view}
	if a.gh != nil {
		obs.loaded = a.gh.Loaded
	}
	// A chart's lookup reads the cluster, Secrets' data included (apply
	// writes what the chart derives from it), once per run.
	opts := run.Options{Connect: connected(a.client), Observer: obs, Lookup: true, Single: true,
		Plan: a.f.cluster.PlanOptions(a.client.Namespace, a.as, "")}
	if len(a.args) == 1 {
		sp, err := plan.Detect(a.args[0])
		if err != nil || sp != nil {
			if sp != nil && a.gh != nil {
				a.gh.SavedPlan(sp)
			}
			opts.Saved = sp
			return opts, nil, err
		}
	}
	src, err := checkout(ctx, &a.f.git, a.args)
	if err != nil {
		return opts, nil, err
	}
	a.cmd.SetContext(ctx) // loading, lint and policies share the run's deadline and signal
	ws, err := a.s.open(a.cmd.Context(), &a.f.input, nil, workspace.Options{Checkout: src.root})
	if err != nil {
		return opts, nil, err
	}
	ws.Single(src.paths, a.f.cluster.ApplySet)
	opts.Workspace, opts.Plan.Revision = ws, src.revision()
	return opts, src.rev, nil
}

// report is --drift=report: run.Plan, the plan shown, exit 2 when it has
// changes; nothing is recorded.
func (a *singleApply) report(planCtx context.Context, opts run.Options) error {
	r, err := run.Plan(planCtx, []project.Project{{ApplySet: a.f.cluster.ApplySet}}, opts)
	if r, err = singleReport(planCtx, a.s, r, err); err != nil {
		return err
	}
	if err := render.RunPlan(a.s.out, "text", r, render.RunOptions{Color: a.s.color(a.s.out)}); err != nil {
		return err
	}
	if a.gh != nil {
		if err := a.gh.Planned(r); err != nil {
			return err
		}
	}
	if r.HasChanges() {
		return exitError{exitChanges}
	}
	return nil
}

// show shows an applied run (lint's errors on stderr, the result as
// --output says, the GitHub view) and returns its project's error.
func (a *singleApply) show(ctx context.Context, r *run.Report, rev *source.Revision) error {
	_, err := singleReport(ctx, a.s, r, nil)
	if verr := render.RunApply(a.s.out, a.f.output, r, render.RunOptions{Revision: rev}); verr != nil {
		err = errors.Join(err, verr)
	}
	if a.gh != nil {
		a.gh.Revision(rev)
		if gerr := a.gh.Applied(r); err == nil {
			err = gerr
		}
	}
	return err
}
