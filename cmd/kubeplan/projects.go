package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/workspace"
)

type projectsFlags struct {
	output       string
	config       arguments.Input
	changedSince string
}

func newProjectsCmd(s streams) *cobra.Command {
	f := &projectsFlags{}
	cmd := &cobra.Command{
		Use:   "projects [PATH]",
		Short: "List the projects of a repository: its overlays and plain manifest directories",
		Long: `List the projects under PATH (default: the current directory), the units kubeplan lints on
their own: the overlays and plain manifest directories, or those kubeplan.yaml declares, with
their settings. --changed-since REF lists only those a change since REF affects.

Reference: docs/projects.md, docs/config.md.

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan projects
  kubeplan projects -o json deploy/
  kubeplan projects --changed-since origin/main -o json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runProjects(cmd, s, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(render.ProjectsFormats(), ", "))
	fl.StringArrayVar(&f.config.Exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringVar(&f.changedSince, "changed-since", "", "only the projects a change since this git revision affects (e.g. origin/main)")
	fl.StringVar(&f.config.ConfigFile, "config", "", arguments.ConfigFlagHelp)
	return cmd
}

func runProjects(cmd *cobra.Command, s streams, f *projectsFlags, args []string) error {
	if !slices.Contains(render.ProjectsFormats(), f.output) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.ProjectsFormats(), ", "))
	}
	root, err := workspace.RootOf(args)
	if err != nil {
		return err
	}
	ws, err := s.open(cmd.Context(), &f.config, &arguments.Select{ChangedSince: f.changedSince}, workspace.Options{Root: root})
	if err != nil {
		return err
	}
	ps, _, err := ws.Select()
	if err != nil {
		return err
	}
	return render.Projects(s.out, f.output, ps)
}
