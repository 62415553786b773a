package arguments

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// Serve is serve's command line: the repository to reconcile from and
// its credential files, the projects, the clusters, and the settings of
// serve.Options the flags set as they are.
type Serve struct {
	Git      Git
	Auth     source.AuthFiles
	Kube     *genericclioptions.ConfigFlags
	Projects []string
	All      bool
	Clusters []string
	// Options holds --interval, --concurrency, --listen and the
	// notification flags.
	Options serve.Options
}

// Bind adds serve's flags.
func (f *Serve) Bind(fl *pflag.FlagSet) {
	f.Kube = kube.Flags()
	f.Kube.AddFlags(fl)
	f.Git.Bind(fl, "reconcile")
	fl.StringArrayVar(&f.Projects, "project", nil, "reconcile this project, by the name kubeplan projects shows (repeatable; default: all)")
	fl.BoolVar(&f.All, "all", false, "reconcile every project of the repository (the default)")
	BindClusters(fl, &f.Clusters)
	fl.DurationVar(&f.Options.Interval, "interval", serve.DefaultInterval, "how often a project is reconciled, unless its kubeplan.yaml entry sets interval:")
	fl.IntVar(&f.Options.Concurrency, "concurrency", serve.DefaultConcurrency, "projects run at once per cluster")
	fl.StringVar(&f.Options.Listen, "listen", ":8080", "address of /metrics, /healthz and /readyz (empty: none)")
	fl.StringVar(&f.Auth.TokenFile, "git-token-file", "", "file holding a token for an https --source (read at every fetch)")
	fl.StringVar(&f.Auth.SSHKeyFile, "git-ssh-key-file", "", "file holding the private key (a deploy key) for an ssh --source")
	fl.StringVar(&f.Auth.KnownHostsFile, "git-known-hosts-file", "", "known_hosts file the ssh server's host key must be in (required with ssh)")
	n := &f.Options.Notify
	fl.StringVar(&n.Webhook, "notify-webhook", "", "URL to post each run's result to")
	fl.StringVar(&n.Format, "notify-format", "json", "body of --notify-webhook: json, slack or teams")
	fl.StringVar(&n.GitHubRepository, "github-repository", "", "OWNER/NAME whose commits get a status per project run")
	fl.StringVar(&n.GitHubTokenFile, "github-token-file", "", "file holding the token for --github-repository")
}

// Check refuses flags that do not go together or are out of range.
func (f *Serve) Check() error {
	if f.Git.Source == "" {
		return errors.New("serve needs --source: the git repository to reconcile from")
	}
	if f.All && len(f.Projects) > 0 {
		return errors.New("give either --all or --project, not both")
	}
	switch f.Options.Notify.Format {
	case "json", "slack", "teams":
	default:
		return fmt.Errorf("unknown --notify-format %q: want json, slack or teams", f.Options.Notify.Format)
	}
	if f.Options.Interval < time.Second {
		return fmt.Errorf("--interval %s is too short: at least 1s", f.Options.Interval)
	}
	return nil
}

// Source is the repository of --source, --ref and --path with the
// credential files.
func (f *Serve) Source() source.Git {
	return source.Git{URL: f.Git.Source, Ref: f.Git.Ref, Path: f.Git.Path, Files: f.Auth}
}

// ServeOptions are serve's options: the flags', connecting through the
// runner's map ($KUBEPLAN_CLUSTERS in env, then --clusters) else the pod's
// ServiceAccount (serve.Connector); every checkout's SOPS files decrypted
// (keys from SOPS's environment); applied as kubeplan version, waiting
// for health, holding the lock LockDuration(env).
func (f *Serve) ServeOptions(env ghactions.Env, version string) (serve.Options, error) {
	clusters, err := kube.ParseClusters(env(kube.ClustersEnv), f.Clusters)
	if err != nil {
		return serve.Options{}, err
	}
	o := f.Options
	o.Source = f.Source()
	o.Projects = f.Projects
	o.Connect = serve.Connector(f.Kube, clusters)
	o.Overrides = workspace.Overrides{Decrypt: true}
	o.Plan = plan.Options{FieldManager: "kubeplan"}
	o.Apply = apply.Options{FieldManager: "kubeplan", Version: version, Wait: true, Timeout: serve.DefaultTimeout, LockDuration: LockDuration(env)}
	return o, nil
}

// KubeConfig is --kubeconfig, "" when not given.
func (f *Serve) KubeConfig() string { return deref(f.Kube.KubeConfig) }
