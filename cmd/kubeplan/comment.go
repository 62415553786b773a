package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

func newCommentCmd(s streams) *cobra.Command {
	f := &arguments.Comment{}
	cmd := &cobra.Command{
		Use:   "comment DIR|FILE...",
		Short: "Merge the project plans of separate jobs (plan --out DIR) into one pull-request comment",
		Args:  cobra.MinimumNArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return runComment(s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "comment", true)
}

func runComment(s streams, f *arguments.Comment, args []string) error {
	if err := f.Check(); err != nil {
		return err
	}
	r, err := run.LoadFiles(args)
	if err != nil {
		return err
	}
	if s.githubMode() {
		if err := s.ghRun(f.View(s.env(), kubeplanVersion())).Done(context.Background(), r); err != nil {
			return err
		}
	} else if err := render.RunPlan(s.out, f.Output, r, render.RunOptions{Color: f.Output == "text" && s.color(s.out)}); err != nil {
		return err
	}
	return r.Err()
}
