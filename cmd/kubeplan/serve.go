package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/serve"
)

func newServeCmd(s streams) *cobra.Command {
	f := &arguments.Serve{}
	cmd := &cobra.Command{
		Use:     "serve --source URL [--ref BRANCH] [--path DIR] [--project NAME ... | --all]",
		Short:   "Reconcile the projects of a git repository continuously, from inside the cluster",
		Long:    arguments.Help("serve"),
		Example: arguments.Example("serve"),
		Args:    cobra.NoArgs,
		RunE:    func(*cobra.Command, []string) error { return runServe(s, f) },
	}
	f.Bind(cmd.Flags())
	return cmd
}

func runServe(s streams, f *arguments.Serve) error {
	if err := f.Check(); err != nil {
		return err
	}
	if err := f.Source().CheckFiles(); err != nil {
		return err
	}
	clusters, err := clusterMap(s, f.Clusters)
	if err != nil {
		return err
	}
	o := f.ServeOptions(clusters, kubeplanVersion(), lockDuration(s))
	o.Log = s.err
	// GITHUB_API_URL: GitHub Enterprise
	if on, err := o.Notify.Notifier(render.NotifyWords{}, s.env()("GITHUB_API_URL"), serve.PodState(deref(f.Kube.KubeConfig))); err != nil {
		return err
	} else if on != nil {
		o.OnRun = serve.Notify(on, s.err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }() // a second signal kills
	return serve.Run(ctx, o, func(addr fmt.Stringer) { render.ServeListening(s.err, addr) })
}
