package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
)

type projectsFlags struct {
	output  string
	exclude []string
	config  inputFlags
}

func newProjectsCmd(s streams) *cobra.Command {
	f := &projectsFlags{}
	cmd := &cobra.Command{
		Use:   "projects [PATH]",
		Short: "List the projects of a repository: its overlays and plain manifest directories",
		Long: `List the projects under PATH (default: the current directory), the units kubeplan
lints on their own.

A project is a kustomization no other kustomization uses and that is not a Component
(an overlay, or a base nobody uses), or the top-most directory of plain manifests that no
kustomization reads. Bases used by overlays, Components and patch files are not projects;
they are among the FILES of the projects that read them.

Exclude globs come from --exclude and the exclude list of .kubeplan.yaml.

` + exitCodesHelp,
		Example: `  kubeplan projects
  kubeplan projects -o json deploy/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(render.ProjectsFormats(), f.output) {
				return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.ProjectsFormats(), ", "))
			}
			root := "."
			if len(args) == 1 {
				root = args[0]
			}
			cfg, err := f.config.config()
			if err != nil {
				return err
			}
			ps, err := project.DiscoverWith(root, project.Options{Exclude: append(cfg.ExcludePatterns(), f.exclude...)})
			if err != nil {
				return err
			}
			return render.Projects(s.out, f.output, ps)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(render.ProjectsFormats(), ", "))
	fl.StringArrayVar(&f.exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringVar(&f.config.configFile, "config", "", "config file (default: .kubeplan.yaml found walking up from the working directory to the repository root)")
	return cmd
}
