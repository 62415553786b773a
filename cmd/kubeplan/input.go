package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/workspace"
)

// opener opens a verb's workspace (arguments.Opener) with in's
// overrides and sel's selection (options), in the command's context at
// the time. It is read at every call (apply --interval sees edits).
func (s streams) opener(cmd *cobra.Command, in *arguments.Input, sel *arguments.Select) arguments.Opener {
	return func(wo workspace.Options) (*workspace.Workspace, error) {
		return workspace.Open(s.options(cmd.Context(), in, sel, wo))
	}
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
