package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/workspace"
)

type statusFlags struct {
	kube     *genericclioptions.ConfigFlags
	applySet string
	output   string
	sel      arguments.Select
	config   arguments.Input
	clusters []string // --clusters: the runner's cluster map
}

func newStatusCmd(s streams) *cobra.Command {
	f := &statusFlags{kube: kube.Flags()}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show what the cluster runs for an ApplySet: revision, times, result, members and their health",
		Long: `Show what the ApplySet's parent records about the last runs (revision, applied, checked,
result) and every member with its health. Read-only, and it never reads Secrets. With
--project, --all or --changed-since [PATH], the status of each selected project.

Reference: docs/apply.md ("kubeplan status"), docs/output.md (JSON).

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan status -n store --applyset configmap/gitops-applyset
  kubeplan status -n store --applyset configmap/gitops-applyset -o json
  kubeplan status --all`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runStatus(cmd, s, f, args) },
	}
	f.kube.AddFlags(cmd.Flags())
	fl := cmd.Flags()
	fl.StringVar(&f.applySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (required without --project, --all or --changed-since)")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	f.sel.Bind(fl, "show")
	arguments.BindClusters(fl, &f.clusters)
	fl.StringVar(&f.config.ConfigFile, "config", "", "config file, with --project, --all or --changed-since (default: kubeplan.yaml found walking up to the repository root)")
	return cmd
}

func runStatus(cmd *cobra.Command, s streams, f *statusFlags, args []string) error {
	if !slices.Contains([]string{"text", "json"}, f.output) {
		return fmt.Errorf("unknown --output %q: want text or json", f.output)
	}
	ctx := s.stopOnSignal(cmd)
	if f.sel.On() {
		return statusProjects(ctx, cmd, s, f, args)
	}
	if len(args) > 0 {
		return fmt.Errorf("status takes no PATH without --project, --all or --changed-since")
	}
	if f.applySet == "" {
		return fmt.Errorf("--applyset is required (or select projects with --project, --all or --changed-since)")
	}
	c, err := kube.Connect(f.kube)
	if err != nil {
		return err
	}
	// The one project its flags make, read as --all reads each project.
	r := run.ReadStatus(ctx, []project.Project{{ApplySet: f.applySet}}, connected(c), 0)
	r.Single = true
	if err := singleErr(ctx, r.Projects[0]); err != nil {
		return err
	}
	return showSingleStatus(s, strings.ToLower(f.output), r)
}

// connectSet connects (one request: a missing kubeconfig or an unreachable
// server is one line) and parses --applyset, for the verbs about one set.
func connectSet(ctx context.Context, kf *genericclioptions.ConfigFlags, applySet string) (*kube.Client, applyset.Parent, error) {
	c, err := kube.Connect(kf)
	if err != nil {
		return nil, applyset.Parent{}, err
	}
	if err := c.Ping(ctx); err != nil {
		return nil, applyset.Parent{}, err
	}
	as, err := applyset.ParseParentFlag(applySet, c.Namespace)
	return c, as, err
}

// statusProjects is status over projects: each selected project's
// ApplySet, read concurrently.
func statusProjects(ctx context.Context, cmd *cobra.Command, s streams, f *statusFlags, args []string) error {
	root, err := workspace.RootOf(args)
	if err != nil {
		return err
	}
	if err := f.sel.RefuseSetFlags("namespace", "applyset"); err != nil {
		return err
	}
	ws, err := s.open(cmd.Context(), &f.config, &f.sel, workspace.Options{From: root, Root: root})
	if err != nil {
		return err
	}
	ps, _, err := ws.Select()
	if err != nil {
		return err
	}
	clusters, err := clusterMap(s, f.clusters)
	if err != nil {
		return err
	}
	cf := arguments.Cluster{Kube: f.kube}
	r := run.ReadStatus(ctx, ps, connector(&cf, clusters, root, gitCheckout(root)), 0)
	if err := render.RunStatus(s.out, f.output, r); err != nil {
		return err
	}
	return r.Err()
}
