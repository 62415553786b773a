package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/buildinfo"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/render"
)

// kubeplanVersion is the version kubeplan reports (buildinfo.Version).
func kubeplanVersion() string { return buildinfo.Version() }

func newVersionCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print kubeplan's version, commit and build date, and the Kubernetes version of its built-in schemas",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			vs := kubeapi.Versions()
			c, d := buildinfo.Commit()
			return render.PrintVersion(s.out, render.Version{Kubeplan: kubeplanVersion(), Commit: c, Date: d,
				Schemas: kubeapi.KubeVersion, APIFrom: vs[0], APITo: vs[len(vs)-1]})
		},
	}
}
