package main

import (
	"context"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/source"
)

// checkout brings the source up to date (cloned once into the cache, then
// fetched and reset to the remote branch) and returns what to read. Local
// paths are read as they are; their revision is the HEAD of the git
// repository holding them, marked +dirty when its tree has changes.
func checkout(ctx context.Context, g *arguments.Git, args []string) (manifestSource, error) {
	if g.Source == "" {
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
	r, err := source.Git{URL: g.Source, Ref: g.Ref, Path: g.Path}.Sync(ctx)
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
