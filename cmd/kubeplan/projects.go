package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/workspace"
)

type projectsFlags struct {
	output       string
	config       inputFlags
	changedSince string
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

With a kubeplan.yaml (see docs/config.md), its ignore globs are never projects, and when it
lists projects: those are the projects, with the settings it gives them (namespace, applyset,
cluster, kubeVersion, dependsOn); the columns NAMESPACE, APPLYSET, CLUSTER and DEPENDS show
them. CLUSTER is the cluster's name: plan, apply and status map it to credentials only through
the runner's --clusters or KUBEPLAN_CLUSTERS. A kustomization's own namespace: field is its project's namespace unless
the config sets one. Exclude globs come from --exclude and the exclude list of kubeplan.yaml.

--changed-since REF lists only the projects a change since the git revision REF affects
(the commits from REF to HEAD and the uncommitted changes): a project is affected when a file
it reads changed (its own, its bases', Components', patches', generator inputs) or a path
below it; a change to kubeplan.yaml affects them all.

` + exitCodesHelp,
		Example: `  kubeplan projects
  kubeplan projects -o json deploy/
  kubeplan projects --changed-since origin/main -o json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(render.ProjectsFormats(), f.output) {
				return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.ProjectsFormats(), ", "))
			}
			root, err := workspace.RootOf(args)
			if err != nil {
				return err
			}
			ws, err := f.config.open(cmd, s, &selectFlags{changedSince: f.changedSince}, workspace.Options{Root: root})
			if err != nil {
				return err
			}
			ps, _, err := ws.Select()
			if err != nil {
				return err
			}
			return render.Projects(s.out, f.output, ps)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(render.ProjectsFormats(), ", "))
	fl.StringArrayVar(&f.config.exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringVar(&f.changedSince, "changed-since", "", "only the projects a change since this git revision affects (e.g. origin/main)")
	fl.StringVar(&f.config.configFile, "config", "", configFlagHelp)
	return cmd
}
