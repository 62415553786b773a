package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/gctune"
	"github.com/kubeplan/kubeplan/internal/interrupt"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/serve"
)

func newServeCmd(s streams) *cobra.Command {
	f := &arguments.Serve{}
	cmd := &cobra.Command{
		Use:   "serve --source URL [--ref BRANCH] [--path DIR] [--project NAME ... | --all]",
		Short: "Reconcile the projects of a git repository continuously, from inside the cluster",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return runServe(s, f) },
	}
	f.Bind(cmd.Flags())
	fl := cmd.Flags()
	fl.StringVar(&f.Options.WebhookListen, "webhook-addr", "", "address of the push webhooks /hooks/github, /hooks/gitlab and /hooks/generic (\":9443\"; empty: none)")
	fl.StringVar(&f.Options.WebhookSecretFile, "webhook-secret-file", "", "file holding the webhooks' shared secret (a mounted Secret's key; required with --webhook-addr)")
	return withHelp(cmd, "serve", true)
}

func runServe(s streams, f *arguments.Serve) error {
	if err := f.Check(); err != nil {
		return err
	}
	if err := f.Source().CheckFiles(); err != nil {
		return err
	}
	o, err := f.ServeOptions(s.env(), kubeplanVersion())
	if err != nil {
		return err
	}
	o.Log = s.err
	// A long-running process: a tighter collector, under the container's limit.
	gc := gctune.Serve(s.env(), os.ReadFile)
	gc.Apply()
	render.ServeMemory(s.err, gc.String())
	o.WebhookReady = func(addr fmt.Stringer) { render.ServeWebhooks(s.err, addr) }
	// GITHUB_API_URL: GitHub Enterprise
	if err := o.Notifications(render.NotifyWords{}, s.env()("GITHUB_API_URL"), serve.PodState(f.KubeConfig())); err != nil {
		return err
	}
	ctx, stop := interrupt.Finishing() // SIGTERM or Ctrl-C: the runs under way finish
	defer stop()
	return serve.Run(ctx, o, func(addr fmt.Stringer) { render.ServeListening(s.err, addr) })
}
