package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// manifestSource is what plan and apply read: local paths, or a checkout of a git
// source, with its revision when known.
type manifestSource struct {
	paths []string
	root  string // files are named relative to it ("" for local paths)
	rev   *source.Revision
}

// loadSet lints the set and returns its objects. Error-level findings stop
// before any request is made: they are printed to stderr and the error
// counts them. loaded, when not nil, sees the objects before anything about
// them is printed (GitHub mode masks their Secret values).
func loadSet(cmd *cobra.Command, s streams, in *inputFlags, src manifestSource, namespace string, loaded func([]*manifest.Object)) ([]*manifest.Object, error) {
	// A git source is read only inside its checkout (symlinks included);
	// local paths are each their own root (manifest.Options.Root).
	ws, err := in.open(cmd, s, nil, workspace.Options{Checkout: src.root})
	if err != nil {
		return nil, err
	}
	li, opts, err := in.set(ws, src.paths, namespace)
	if err != nil {
		return nil, err
	}
	li.KeepObjects, opts.Loaded = true, loaded
	rep, objs, err := lint.Check(li, opts)
	if err != nil {
		return nil, err
	}
	if errs := rep.Errors(); len(errs) > 0 {
		rep.Findings = errs
		_ = render.Lint(s.err, "text", rep, render.LintOptions{Color: s.color(s.err)})
		return nil, fmt.Errorf("lint found %d error(s); nothing was sent to the cluster", len(errs))
	}
	return objs, nil
}
