package arguments

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/run"
)

// Orphans is kubeplan orphans's command line.
type Orphans struct {
	Kube     *genericclioptions.ConfigFlags
	ApplySet string
	Output   string
	// DetailedExitcode: exit 2 when anything is found.
	DetailedExitcode bool
	Select           Select
	// Input holds only --config (orphans reads no manifests).
	Input    Input
	Clusters []string // --clusters: the runner's cluster map
}

// Bind adds orphans's flags.
func (f *Orphans) Bind(fl *pflag.FlagSet) {
	f.Kube = kube.Flags()
	f.Kube.AddFlags(fl)
	fl.StringVar(&f.ApplySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME: its additional namespaces are looked in too (default: only -n's namespace)")
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: text or json")
	fl.BoolVar(&f.DetailedExitcode, "detailed-exitcode", false, "exit 2 when objects nobody manages are found, 0 when none are (1 stays any error)")
	f.Select.Bind(fl, "look in")
	BindClusters(fl, &f.Clusters)
	fl.StringVar(&f.Input.ConfigFile, "config", "", "config file, with --project, --all or --changed-since (default: kubeplan.yaml found walking up to the repository root)")
}

// Check refuses an unknown --output and, without a selection of
// projects, a PATH.
func (f *Orphans) Check(args []string) error {
	if !slices.Contains([]string{"text", "json"}, f.Output) {
		return fmt.Errorf("unknown --output %q: want text or json", f.Output)
	}
	if !f.Select.On() && len(args) > 0 {
		return errors.New("orphans takes no PATH without --project, --all or --changed-since (it looks in -n's namespace)")
	}
	return nil
}

// Request is the run orphans reads: the ApplySets' namespaces, like
// status, with no source and no lint.
func (f *Orphans) Request(args []string, env ghactions.Env, open Opener) run.Request {
	return run.Request{Paths: args, Projects: f.Select.On(), Status: true, Open: open, Kube: f.Kube, ApplySet: f.ApplySet,
		ClustersEnv: env(kube.ClustersEnv), Clusters: f.Clusters, Refused: refused(&f.Select)}
}
