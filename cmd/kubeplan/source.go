package main

import (
	"context"
	"errors"
	"net/url"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/source"
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
// fetched and reset to the remote branch) and returns what to read. Local
// paths are read as they are; their revision is the HEAD of the git
// repository holding them, marked +dirty when its tree has changes.
func (g *gitFlags) checkout(ctx context.Context, args []string) (manifestSource, error) {
	if g.source == "" {
		src := manifestSource{paths: args}
		at := "."
		if len(args) > 0 {
			at = args[0]
		}
		if at == "-" {
			return src, nil
		}
		rev, err := source.LocalRevision(at)
		if err != nil {
			return manifestSource{}, err
		}
		src.rev = rev
		return src, nil
	}
	r, err := source.Git{URL: g.source, Ref: g.ref, Path: g.path}.Sync(ctx)
	if err != nil {
		return manifestSource{}, err
	}
	return manifestSource{paths: []string{r.Dir}, root: r.Root, rev: &r}, nil
}

// manifestSource is what plan and apply read: local paths, or a checkout of a git
// source, with its revision when known.
type manifestSource struct {
	paths []string
	root  string // files are named relative to it ("" for local paths)
	rev   *source.Revision
}

// revision is the revision's SHA, "" when unknown.
func (s manifestSource) revision() string {
	if s.rev == nil {
		return ""
	}
	return s.rev.SHA
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
