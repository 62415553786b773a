package main

import (
	"context"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/workspace"
)

// open opens the workspace wo says, with in's overrides (and sel's
// selection): kubeplan.yaml is --config, else the one found walking up
// from wo.From. It is read at every call (apply --interval sees edits).
func (s streams) open(ctx context.Context, in *arguments.Input, sel *arguments.Select, wo workspace.Options) (*workspace.Workspace, error) {
	return workspace.Open(s.options(ctx, in, sel, wo))
}

// options are wo with in's overrides (and sel's selection), standard
// input and ctx; a legacy .kubeplan.yaml is noticed on stderr once per
// run.
func (s streams) options(ctx context.Context, in *arguments.Input, sel *arguments.Select, wo workspace.Options) workspace.Options {
	wo.Overrides = in.Overrides(sel)
	wo.Stdin, wo.Context = s.in, ctx
	wo.Legacy = func() {
		if in.FirstNotice() {
			render.LegacyNotice(s.err)
		}
	}
	return wo
}
