package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/workspace"
)

func newProjectsCmd(s streams) *cobra.Command {
	f := &arguments.Projects{}
	cmd := &cobra.Command{
		Use:   "projects [PATH]",
		Short: "List the projects of a repository: its overlays and plain manifest directories",
		Args:  cobra.MaximumNArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return runProjects(cmd, s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "projects", true)
}

func runProjects(cmd *cobra.Command, s streams, f *arguments.Projects, args []string) error {
	if err := f.Check(); err != nil {
		return err
	}
	root, err := workspace.RootOf(args)
	if err != nil {
		return err
	}
	ws, err := s.opener(cmd, &f.Input, &f.Select)(workspace.Options{Root: root})
	if err != nil {
		return err
	}
	ps, _, err := ws.Select()
	if err != nil {
		return err
	}
	return render.Projects(s.out, f.Output, ps)
}
