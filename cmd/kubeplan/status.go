package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

func newStatusCmd(s streams) *cobra.Command {
	f := &arguments.Status{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show what the cluster runs for an ApplySet: revision, times, result, members and their health",
		Args:  cobra.MaximumNArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return runStatus(cmd, s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "status", true)
}

// runStatus reads the status of the selected projects' ApplySets, or of
// the one --applyset names (run.ReadStatus), and shows it.
func runStatus(cmd *cobra.Command, s streams, f *arguments.Status, args []string) error {
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
	r := run.ReadStatus(ctx, p.Projects, p.Options.Connect, 0, p.Options.HealthRules())
	r.Single = p.Options.Single
	if r, err = s.single(ctx, r, nil); err != nil {
		return err
	}
	if err := render.RunStatus(s.out, f.Output, r); err != nil || r.Single {
		return err // a plain invocation shows the set's failed result, and succeeds
	}
	return r.Err()
}
