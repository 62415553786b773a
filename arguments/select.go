package arguments

import (
	"fmt"

	"github.com/spf13/pflag"
)

// Select chooses projects: --project, --all, --changed-since (plan, apply
// and status; lint binds the same names with its own help).
type Select struct {
	Projects     []string
	All          bool
	ChangedSince string
	// changed reports whether a flag of the verb was given (RefuseSetFlags).
	changed func(string) bool
}

// Bind adds the selection flags; verb words their help.
func (f *Select) Bind(fl *pflag.FlagSet, verb string) {
	fl.StringArrayVar(&f.Projects, "project", nil, verb+" this project, by the name kubeplan projects shows (repeatable)")
	fl.BoolVar(&f.All, "all", false, verb+" every project of the repository (kubeplan projects lists them)")
	fl.StringVar(&f.ChangedSince, "changed-since", "", verb+" the projects a change since this git revision affects (e.g. origin/main)")
	f.changed = fl.Changed
}

// On reports whether projects are selected: the run is over projects, not
// paths.
func (f *Select) On() bool { return f.All || len(f.Projects) > 0 || f.ChangedSince != "" }

// RefuseSetFlags refuses the flags that name one set when the run is over
// projects: each project has its own namespace and ApplySet.
func (f *Select) RefuseSetFlags(names ...string) error {
	for _, n := range names {
		if f.changed != nil && f.changed(n) {
			return fmt.Errorf("--%s names one set; with --project, --all or --changed-since each project has its own (set it in kubeplan.yaml, see kubeplan projects)", n)
		}
	}
	return nil
}
