package buildinfo

import "runtime/debug"

// version, commit and date are set at build time with -ldflags
// "-X github.com/kubeplan/kubeplan/internal/buildinfo.version=v1.4.0
// -X github.com/kubeplan/kubeplan/internal/buildinfo.commit=...
// -X github.com/kubeplan/kubeplan/internal/buildinfo.date=..." (make
// build, the release build, the Action). Without them, the Go toolchain's
// build information stands in: the module version of go install, the VCS
// revision and time of a build in a git checkout.
var (
	version = ""
	commit  = ""
	date    = ""
)

// Commit is the commit (at most 12 characters) and date kubeplan was
// built from: the ldflags' commit and date, else the VCS stamp.
func Commit() (string, string) {
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

// Version is kubeplan's version: the ldflags' version, else the module
// version of go install, else "dev".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
