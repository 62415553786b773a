package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
	kcmapp "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
)

// disabledControllers are the kube-controller-manager controllers that need
// things this cluster does not have: a cloud, node CIDRs, volume plugins,
// a CSR signer, bootstrap tokens, or node heartbeats (node-lifecycle would
// taint the simulated node). Everything else runs, as in a real cluster.
var disabledControllers = []string{
	"nodeipam", "nodelifecycle",
	"persistentvolume-binder", "attachdetach", "persistentvolume-expander", "ephemeral-volume",
	"csrsigning", "csrapproving", "csrcleaner",
	"bootstrapsigner", "tokencleaner",
}

func controllerManagerArgs(dir string) []string {
	p := func(name string) string { return filepath.Join(dir, name) }
	return []string{
		"--kubeconfig=" + p(controllersConfig),
		"--controllers=*,-" + strings.Join(disabledControllers, ",-"),
		"--leader-elect=false",
		"--use-service-account-credentials=false",
		"--secure-port=0",
		"--service-account-private-key-file=" + p(saKeyFile),
		"--root-ca-file=" + p(caCertFile),
		"--kube-api-qps=200",
		"--kube-api-burst=400",
	}
}

// runControllerManager runs kube-controller-manager in this process until ctx ends.
func runControllerManager(ctx context.Context, args []string) error {
	s, err := kcmoptions.NewKubeControllerManagerOptions()
	if err != nil {
		return fmt.Errorf("kube-controller-manager options: %w", err)
	}
	known, disabled, aliases := kcmapp.KnownControllers(), kcmapp.ControllersDisabledByDefault(), kcmapp.ControllerAliases()
	named := s.Flags(known, disabled, aliases)
	s.ParsedFlags = &named
	fs := pflag.NewFlagSet("kube-controller-manager", pflag.ContinueOnError)
	for _, f := range named.FlagSets {
		fs.AddFlagSet(f)
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("kube-controller-manager flags: %w", err)
	}
	if err := s.ComponentGlobalsRegistry.Set(); err != nil {
		return fmt.Errorf("kube-controller-manager feature gates: %w", err)
	}
	c, err := s.Config(ctx, known, disabled, aliases)
	if err != nil {
		return fmt.Errorf("kube-controller-manager config: %w", err)
	}
	return kcmapp.Run(ctx, c.Complete())
}
