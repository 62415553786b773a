package main

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/manifest"
)

// gitFlags are --source, --ref and --path: the manifests read from a git
// repository (plan and apply).
type gitFlags struct {
	source, ref, path string
}

func (g *gitFlags) add(fl *pflag.FlagSet, what string) {
	fl.StringVar(&g.source, "source", "", "read the manifests from this git repository (path, file://, https:// or ssh URL)")
	fl.StringVar(&g.ref, "ref", "", "with --source: the branch to follow (default: the remote's default branch)")
	fl.StringVar(&g.path, "path", "", "with --source: the directory of the repository to "+what+" (default: its root)")
}

// check refuses --source together with paths.
func (g *gitFlags) check(args []string) error {
	if g.source != "" && len(args) > 0 {
		return errors.New("give either --source or paths, not both")
	}
	if g.source == "" && (g.ref != "" || g.path != "") {
		return errors.New("--ref and --path go with --source")
	}
	return nil
}

// checkout brings the source up to date (cloned once into the cache, then
// fetched and reset to the remote branch) and returns the paths to read,
// the checkout's root (files are named relative to it) and the revision.
// Without --source it returns args as they are.
func (g *gitFlags) checkout(ctx context.Context, args []string) ([]string, string, *manifest.Revision, error) {
	if g.source == "" {
		return args, "", nil, nil
	}
	r, err := manifest.GitSource{URL: g.source, Ref: g.ref, Path: g.path}.Sync(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	root := r.Dir
	if g.path != "" {
		root = strings.TrimSuffix(filepath.Clean(r.Dir), filepath.Clean("/"+g.path))
	}
	return []string{r.Dir}, root, &r, nil
}

// password is the password in a --source URL (https://user:pass@host/...),
// if any: GitHub mode masks it.
func (g *gitFlags) password() string {
	u, err := url.Parse(g.source)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
