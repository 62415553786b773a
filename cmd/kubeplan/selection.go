package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
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
	root := "."
	switch len(args) {
	case 0:
	case 1:
		root = args[0]
	default:
		return "", errors.New("--project, --all and --changed-since take one PATH (the repository or a directory of it), not several")
	}
	// A PATH in the checkout that the pull request made a link out of it
	// is refused: its projects would be read from elsewhere.
	if err := confine.Within(root, confine.RootFor(root)); err != nil {
		return "", err
	}
	return root, nil
}

// choose returns the selected projects under root, sorted by path: the
// projects of kubeplan.yaml (project.Load: declared, or discovered, with
// their settings), those a change since --changed-since affects, those
// --project names.
//
// all are every project of the repository.
func (f *selectFlags) choose(cfg *config.Config, root string, exclude []string) (selected, all []project.Project, err error) {
	if all, err = project.Load(root, cfg, project.Options{Exclude: exclude}); err != nil {
		return nil, nil, err
	}
	if selected, err = changedSince(root, f.changedSince, all); err != nil || len(f.projects) == 0 {
		return selected, all, err
	}
	selected, err = byName(selected, all, f.projects)
	return selected, all, err
}
