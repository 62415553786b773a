package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/project"
)

// selectFlags choose projects: --project, --all, --changed-since (plan,
// apply and status; lint has its own, older, flags of the same names).
type selectFlags struct {
	projects     []string
	all          bool
	changedSince string
}

func (f *selectFlags) add(fl *pflag.FlagSet, verb string) {
	fl.StringArrayVar(&f.projects, "project", nil, verb+" this project, by the name kubeplan projects shows (repeatable)")
	fl.BoolVar(&f.all, "all", false, verb+" every project of the repository (kubeplan projects lists them)")
	fl.StringVar(&f.changedSince, "changed-since", "", verb+" the projects a change since this git revision affects (e.g. origin/main)")
}

// on reports whether projects are selected: the run is over projects, not
// paths.
func (f *selectFlags) on() bool { return f.all || len(f.projects) > 0 || f.changedSince != "" }

// refuseSetFlags refuses the flags that name one set when the run is over
// projects: each project has its own namespace and ApplySet.
func (f *selectFlags) refuseSetFlags(cmd *cobra.Command, names ...string) error {
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			return fmt.Errorf("--%s names one set; with --project, --all or --changed-since each project has its own (set it in kubeplan.yaml, see kubeplan projects)", n)
		}
	}
	return nil
}

// root is the repository directory of a project run: the one PATH, or the
// current directory.
func projectRoot(args []string) (string, error) {
	switch len(args) {
	case 0:
		return ".", nil
	case 1:
		return args[0], nil
	}
	return "", errors.New("--project, --all and --changed-since take one PATH (the repository or a directory of it), not several")
}

// choose returns the selected projects under root, sorted by path.
func (f *selectFlags) choose(root string, exclude []string) ([]project.Project, error) {
	ps, err := f.chooseAll(root, exclude)
	for i := range ps {
		if ps[i].ApplySet == "" {
			ps[i].ApplySet = "configmap/kubeplan-" + ps[i].Name
		}
	}
	return ps, err
}

func (f *selectFlags) chooseAll(root string, exclude []string) ([]project.Project, error) {
	ps, err := selectProjects(root, exclude, f.changedSince)
	if err != nil || len(f.projects) == 0 {
		return ps, err
	}
	all := ps
	if f.changedSince != "" {
		if all, err = selectProjects(root, exclude, ""); err != nil {
			return nil, err
		}
	}
	return byName(ps, all, f.projects)
}
