package arguments

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/run"
)

// Suspend is the command line of suspend and resume: the projects (by
// name, or --project, --all, --changed-since) or the one set -n and
// --applyset name, and suspend's --reason.
type Suspend struct {
	Kube     *genericclioptions.ConfigFlags
	ApplySet string
	Output   string
	Reason   string
	Select   Select
	Input    Input // only --config
	Clusters []string
	verb     string
}

// Bind adds the flags of verb (suspend or resume).
func (f *Suspend) Bind(fl *pflag.FlagSet, verb string) {
	f.verb = verb
	f.Kube = kube.Flags()
	f.Kube.AddFlags(fl)
	fl.StringVar(&f.ApplySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (without a PROJECT)")
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: text or json")
	if verb == "suspend" {
		fl.StringVar(&f.Reason, "reason", "", "why (required): recorded on the ApplySet parent and shown by every refused apply, plan and status")
	}
	f.Select.Bind(fl, verb)
	BindClusters(fl, &f.Clusters)
	fl.StringVar(&f.Input.ConfigFile, "config", "", "config file, with a PROJECT (default: kubeplan.yaml found walking up to the repository root)")
}

// Check refuses an unknown --output, suspend without --reason, and
// neither a project nor --applyset. The PROJECT arguments are selected
// as --project.
func (f *Suspend) Check(args []string) error {
	if !slices.Contains([]string{"text", "json"}, f.Output) {
		return fmt.Errorf("unknown --output %q: want text or json", f.Output)
	}
	if f.verb == "suspend" && strings.TrimSpace(f.Reason) == "" {
		return errors.New("--reason is required: say why, e.g. --reason \"incident 123\" (status and every refused apply show it)")
	}
	f.Select.Projects = append(f.Select.Projects, args...)
	if !f.Select.On() && f.ApplySet == "" {
		return fmt.Errorf("name a project (kubeplan %s PROJECT, see kubeplan projects) or a set (-n NAMESPACE --applyset configmap/NAME)", f.verb)
	}
	return nil
}

// Request is the run that finds the projects' parents (as status does).
func (f *Suspend) Request(env ghactions.Env, open Opener) run.Request {
	return run.Request{Paths: configDir(f.Input.ConfigFile), Projects: f.Select.On(), Status: true, Open: open, Kube: f.Kube, ApplySet: f.ApplySet,
		ClustersEnv: env(kube.ClustersEnv), Clusters: f.Clusters, Refused: refused(&f.Select)}
}

// Sync is kubeplan sync's command line: apply's, and --via-serve.
type Sync struct {
	Apply
	ViaServe bool
	Wait     time.Duration
	paths    []string // with --applyset: the manifests (Check)
}

// Bind adds apply's flags and sync's own.
func (f *Sync) Bind(fl *pflag.FlagSet) {
	f.Apply.Bind(fl)
	fl.BoolVar(&f.ViaServe, "via-serve", false, "do not apply here: ask kubeplan serve, running in the cluster, to run the project now, and wait for its answer")
	fl.DurationVar(&f.Wait, "serve-timeout", 2*time.Minute, "with --via-serve: how long to wait for serve's answer")
}

// Check checks apply's flags. The arguments are projects, or with
// --applyset the paths of the set's manifests (as apply's).
func (f *Sync) Check(args []string) error {
	f.paths = nil
	if f.Cluster.ApplySet != "" {
		f.paths = args
	} else {
		f.Select.Projects = append(f.Select.Projects, args...)
	}
	if !f.Select.On() && f.Cluster.ApplySet == "" {
		return errors.New("name a project (kubeplan sync PROJECT, see kubeplan projects) or a set (-n NAMESPACE --applyset configmap/NAME [PATH...])")
	}
	if f.ViaServe && len(f.paths) > 0 {
		return errors.New("--via-serve applies what serve reads from git: it takes no PATH")
	}
	return f.Apply.Check(f.paths)
}

// ServeRequest is the run that finds the parents for --via-serve.
func (f *Sync) ServeRequest(env ghactions.Env, open Opener) run.Request {
	return run.Request{Paths: configDir(f.Input.ConfigFile), Projects: f.Select.On(), Status: true, Open: open, Kube: f.Cluster.Kube, ApplySet: f.Cluster.ApplySet,
		ClustersEnv: env(kube.ClustersEnv), Clusters: f.Cluster.Clusters, Refused: refused(&f.Select)}
}

// Paths are the paths sync applies: a set's manifests, or, the projects
// being named, the directory of the config file whose projects they are
// (--config's; nil for the working directory's repository).
func (f *Sync) Paths() []string {
	if f.Cluster.ApplySet != "" {
		return f.paths
	}
	return configDir(f.Input.ConfigFile)
}

// configDir is the directory of --config, whose projects a verb that
// names projects (not paths) chooses from; nil without --config.
func configDir(file string) []string {
	if file == "" {
		return nil
	}
	return []string{filepath.Dir(file)}
}
