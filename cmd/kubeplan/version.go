package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/lint/schemas"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func kubeplanVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func newVersionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print kubeplan's version and the Kubernetes version of its built-in schemas",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(s.out, "kubeplan %s (Kubernetes schemas %s, API index %s to %s)\n", kubeplanVersion(),
				schemas.KubeVersion, schemas.Versions()[0], schemas.Versions()[len(schemas.Versions())-1])
			return nil
		},
	}
}
