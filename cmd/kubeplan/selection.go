package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
