package arguments

import (
	"errors"
	"net/url"

	"github.com/spf13/pflag"
)

// Git is --source, --ref and --path: the manifests read from a git
// repository (plan, apply and serve).
type Git struct {
	Source, Ref, Path string
}

// Bind adds the flags; what words --path's help (plan, apply, reconcile).
func (g *Git) Bind(fl *pflag.FlagSet, what string) {
	fl.StringVar(&g.Source, "source", "", "read the manifests from this git repository (path, file://, https:// or ssh URL)")
	fl.StringVar(&g.Ref, "ref", "", "with --source: the branch to follow (default: the remote's default branch)")
	fl.StringVar(&g.Path, "path", "", "with --source: the directory of the repository to "+what+" (default: its root)")
}

// Check refuses --source together with paths, and --ref or --path
// without --source.
func (g *Git) Check(args []string) error {
	if g.Source != "" && len(args) > 0 {
		return errors.New("give either --source or paths, not both")
	}
	if g.Source == "" && (g.Ref != "" || g.Path != "") {
		return errors.New("--ref and --path go with --source")
	}
	return nil
}

// Password is the password in a --source URL (https://user:pass@host/...),
// if any: GitHub mode masks it.
func (g *Git) Password() string {
	u, err := url.Parse(g.Source)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
