package arguments

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// Status is kubeplan status's command line.
type Status struct {
	Kube     *genericclioptions.ConfigFlags
	ApplySet string
	Output   string
	Select   Select
	// Input holds only --config (status reads no manifests).
	Input    Input
	Clusters []string // --clusters: the runner's cluster map
}

// Bind adds status's flags.
func (f *Status) Bind(fl *pflag.FlagSet) {
	f.Kube = kube.Flags()
	f.Kube.AddFlags(fl)
	fl.StringVar(&f.ApplySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (required without --project, --all or --changed-since)")
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: text or json")
	f.Select.Bind(fl, "show")
	BindClusters(fl, &f.Clusters)
	fl.StringVar(&f.Input.ConfigFile, "config", "", "config file, with --project, --all or --changed-since (default: kubeplan.yaml found walking up to the repository root)")
}

// Check refuses an unknown --output and, without a selection of
// projects, a PATH or a missing --applyset.
func (f *Status) Check(args []string) error {
	if !slices.Contains([]string{"text", "json"}, f.Output) {
		return fmt.Errorf("unknown --output %q: want text or json", f.Output)
	}
	if f.Select.On() {
		return nil
	}
	if len(args) > 0 {
		return errors.New("status takes no PATH without --project, --all or --changed-since")
	}
	if f.ApplySet == "" {
		return errors.New("--applyset is required (or select projects with --project, --all or --changed-since)")
	}
	return nil
}
