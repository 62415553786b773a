package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/render"
)

// version, commit and date are set at build time with -ldflags
// "-X main.version=v1.4.0 -X main.commit=... -X main.date=..." (make build,
// the release build). Without them, the Go toolchain's build information
// stands in: the module version of go install, the VCS revision and time
// of a build in a git checkout.
var (
	version = ""
	commit  = ""
	date    = ""
)

// buildCommit and buildDate are commit and date, else the VCS stamp.
func buildCommit() (string, string) {
	c, d := commit, date
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && c == "":
				c = s.Value
			case s.Key == "vcs.time" && d == "":
				d = s.Value
			}
		}
	}
	if len(c) > 12 {
		c = c[:12]
	}
	return c, d
}

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
		Short: "Print kubeplan's version, commit and build date, and the Kubernetes version of its built-in schemas",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			vs := kubeapi.Versions()
			c, d := buildCommit()
			return render.PrintVersion(s.out, render.Version{Kubeplan: kubeplanVersion(), Commit: c, Date: d,
				Schemas: kubeapi.KubeVersion, APIFrom: vs[0], APITo: vs[len(vs)-1]})
		},
	}
}
