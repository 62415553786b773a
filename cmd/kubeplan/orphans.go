package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

func newOrphansCmd(s streams) *cobra.Command {
	f := &arguments.Orphans{}
	cmd := &cobra.Command{
		Use:   "orphans",
		Short: "List the objects in a project's namespaces that nobody manages (no ApplySet, Helm, Flux, Argo CD, controller or Kubernetes)",
		Args:  cobra.MaximumNArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return runOrphans(cmd, s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "orphans", true)
}

// runOrphans looks in the selected projects' namespaces, or in -n's and
// its --applyset's, for objects nobody manages (run.FindOrphans), and
// shows them.
func runOrphans(cmd *cobra.Command, s streams, f *arguments.Orphans, args []string) error {
	if err := f.Check(args); err != nil {
		return err
	}
	ctx := s.stopOnSignal(cmd)
	t, err := run.Connect(f.Request(args, s.env(), s.opener(cmd, &f.Input, &f.Select)))
	if err != nil {
		return err
	}
	p, err := t.Prepare(ctx)
	if err != nil {
		return err
	}
	r := run.FindOrphans(ctx, p.Projects, p.Options.Connect, 0)
	if p.Options.Single {
		// a plain invocation's failure is its one project's error, shown once
		if _, err := run.Single(ctx, r.Report, nil); err != nil {
			return err
		}
	}
	if err := render.Orphans(s.out, f.Output, r, time.Now()); err != nil {
		return err
	}
	if err := r.Err(); err != nil {
		return err
	}
	if f.DetailedExitcode && r.Count() > 0 {
		return exitError{exitChanges}
	}
	return nil
}
