package main

import (
	"context"

	"github.com/spf13/cobra"
)

// stopOnSignal returns the verb's context, cancelled by the first SIGINT or
// SIGTERM (interrupt.Stopper); the command's context (what loading and
// lint read) becomes it. Without a Stopper it is cmd's context. apply and
// serve keep their own handling: a write under way is never cut there.
func (s streams) stopOnSignal(cmd *cobra.Command) context.Context {
	if s.sig == nil {
		return cmd.Context()
	}
	ctx := s.sig.Watch(cmd.Context())
	cmd.SetContext(ctx)
	return ctx
}

// writing runs write, an output of the verb, unless a signal came
// (interrupt.Stopper.Writing).
func (s streams) writing(ctx context.Context, write func() error) error {
	return s.sig.Writing(ctx, write)
}
