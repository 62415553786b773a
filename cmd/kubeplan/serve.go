package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

type serveFlags struct {
	git      arguments.Git
	auth     source.AuthFiles
	kube     *genericclioptions.ConfigFlags
	projects []string
	all      bool
	clusters []string
	o        serve.Options
}

func newServeCmd(s streams) *cobra.Command {
	f := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve --source URL [--ref BRANCH] [--path DIR] [--project NAME ... | --all]",
		Short: "Reconcile the projects of a git repository continuously, from inside the cluster",
		Long: `Run as a reconciler, typically in a pod as a ServiceAccount: every project of kubeplan.yaml
(or those --project names) is linted, planned and applied from the git --source at its own
interval, --concurrency at a time per cluster, in dependsOn order. --listen serves /metrics,
/healthz and /readyz. Cluster credentials come only from --clusters (or KUBEPLAN_CLUSTERS) and
the pod's ServiceAccount; git credentials from files read at every fetch. SIGTERM or Ctrl-C:
the runs under way finish, and serve exits 0.

Reference: docs/serve.md, docs/config.md ("Clusters"), docs/notifications.md.

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan serve --source https://github.com/acme/deploy.git --ref main --git-token-file /etc/git/token
  kubeplan serve --source git@github.com:acme/deploy.git --git-ssh-key-file /etc/git/identity --git-known-hosts-file /etc/git/known_hosts --project shop-prod --interval 5m
  kubeplan serve --source https://github.com/acme/deploy.git --clusters prod=/etc/kubeplan/prod.kubeconfig`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, s, f) },
	}
	f.kube = kube.Flags()
	f.kube.AddFlags(cmd.Flags())
	fl := cmd.Flags()
	f.git.Bind(fl, "reconcile")
	fl.StringArrayVar(&f.projects, "project", nil, "reconcile this project, by the name kubeplan projects shows (repeatable; default: all)")
	fl.BoolVar(&f.all, "all", false, "reconcile every project of the repository (the default)")
	arguments.BindClusters(fl, &f.clusters)
	fl.DurationVar(&f.o.Interval, "interval", serve.DefaultInterval, "how often a project is reconciled, unless its kubeplan.yaml entry sets interval:")
	fl.IntVar(&f.o.Concurrency, "concurrency", serve.DefaultConcurrency, "projects run at once per cluster")
	fl.StringVar(&f.o.Listen, "listen", ":8080", "address of /metrics, /healthz and /readyz (empty: none)")
	fl.StringVar(&f.auth.TokenFile, "git-token-file", "", "file holding a token for an https --source (read at every fetch)")
	fl.StringVar(&f.auth.SSHKeyFile, "git-ssh-key-file", "", "file holding the private key (a deploy key) for an ssh --source")
	fl.StringVar(&f.auth.KnownHostsFile, "git-known-hosts-file", "", "known_hosts file the ssh server's host key must be in (required with ssh)")
	fl.StringVar(&f.o.Notify.Webhook, "notify-webhook", "", "URL to post each run's result to")
	fl.StringVar(&f.o.Notify.Format, "notify-format", "json", "body of --notify-webhook: json, slack or teams")
	fl.StringVar(&f.o.Notify.GitHubRepository, "github-repository", "", "OWNER/NAME whose commits get a status per project run")
	fl.StringVar(&f.o.Notify.GitHubTokenFile, "github-token-file", "", "file holding the token for --github-repository")
	return cmd
}

func runServe(cmd *cobra.Command, s streams, f *serveFlags) error {
	if err := f.check(); err != nil {
		return err
	}
	o := f.o
	o.Source = source.Git{URL: f.git.Source, Ref: f.git.Ref, Path: f.git.Path, Files: f.auth}
	if err := o.Source.CheckFiles(); err != nil {
		return err
	}
	o.Projects = f.projects
	clusters, err := clusterMap(s, f.clusters)
	if err != nil {
		return err
	}
	o.Connect = serveConnector(f.kube, clusters)
	o.Overrides = workspace.Overrides{Decrypt: true} // it applies: SOPS files are decrypted (keys from SOPS's environment)
	o.Plan = plan.Options{FieldManager: "kubeplan"}
	o.Apply = apply.Options{FieldManager: "kubeplan", Version: kubeplanVersion(), Wait: true, Timeout: serve.DefaultTimeout, LockDuration: lockDuration(s)}
	o.Log = s.err
	if on, err := serveNotifier(s, f); err != nil {
		return err
	} else if on != nil {
		o.OnRun = serve.Notify(on, s.err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }() // a second signal kills
	return serve.Run(ctx, o, func(addr fmt.Stringer) {
		fmt.Fprintf(s.err, "kubeplan serve: listening on %s\n", addr)
	})
}

// check refuses flags that do not go together or are out of range.
func (f *serveFlags) check() error {
	if f.git.Source == "" {
		return errors.New("serve needs --source: the git repository to reconcile from")
	}
	if f.all && len(f.projects) > 0 {
		return errors.New("give either --all or --project, not both")
	}
	switch f.o.Notify.Format {
	case "json", "slack", "teams":
	default:
		return fmt.Errorf("unknown --notify-format %q: want json, slack or teams", f.o.Notify.Format)
	}
	if f.o.Interval < time.Second {
		return fmt.Errorf("--interval %s is too short: at least 1s", f.o.Interval)
	}
	return nil
}

// serveConnector connects a project to its cluster: a project naming a
// cluster only through serve's own map (--clusters, KUBEPLAN_CLUSTERS);
// else the command line's kubeconfig, else (in a pod, with none) the
// pod's ServiceAccount (kube.Connector).
func serveConnector(base *genericclioptions.ConfigFlags, clusters kube.Clusters) func(p project.Project) (*kube.Client, string, error) {
	c := kube.Connector{Base: base, Clusters: clusters, PodFallback: true}
	return func(p project.Project) (*kube.Client, string, error) { return c.Connect(p.ClusterName, p.ClusterAt) }
}

// serveNotifier builds the notifier of --notify-webhook and
// --github-repository (nil without either). In a pod it keeps its state
// in the ConfigMap kubeplan-notify of the pod's namespace, so a restart
// neither repeats nor forgets a failure's notification.
func serveNotifier(s streams, f *serveFlags) (*notify.Notifier, error) {
	var state func() (notify.State, error)
	if kube.InPod() && deref(f.kube.KubeConfig) == "" {
		state = func() (notify.State, error) {
			c, err := kube.InCluster()
			if err != nil {
				return nil, err
			}
			return notify.ConfigMapState{Client: c.Dynamic, Namespace: c.Namespace, Name: "kubeplan-notify"}, nil
		}
	}
	return f.o.Notify.Notifier(render.NotifyWords{}, s.env()("GITHUB_API_URL"), state) // GITHUB_API_URL: GitHub Enterprise
}
