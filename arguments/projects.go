package arguments

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/render"
)

// Projects is kubeplan projects' command line: the config and the paths
// not read (Input's ConfigFile and Exclude), the selection by change
// (Select's ChangedSince) and the list's format.
type Projects struct {
	Input  Input
	Select Select
	Output string
}

// Bind adds the flags of kubeplan projects.
func (f *Projects) Bind(fl *pflag.FlagSet) {
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: "+strings.Join(render.ProjectsFormats(), ", "))
	fl.StringArrayVar(&f.Input.Exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringVar(&f.Select.ChangedSince, "changed-since", "", "only the projects a change since this git revision affects (e.g. origin/main)")
	fl.StringVar(&f.Input.ConfigFile, "config", "", ConfigFlagHelp)
}

// Check refuses an --output the list has no view for.
func (f *Projects) Check() error { return checkOutput(f.Output, render.ProjectsFormats()) }
