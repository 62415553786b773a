package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/lint/schemas"
	"github.com/kubeplan/kubeplan/render"
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
			vs := schemas.Versions()
			return render.PrintVersion(s.out, render.Version{Kubeplan: kubeplanVersion(), Schemas: schemas.KubeVersion, APIFrom: vs[0], APITo: vs[len(vs)-1]})
		},
	}
}
