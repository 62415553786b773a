package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// syncPoll is how often sync --via-serve reads the parent for serve's answer.
var syncPoll = time.Second

func newSuspendCmd(s streams) *cobra.Command {
	f := &arguments.Suspend{}
	cmd := &cobra.Command{
		Use:   "suspend [PROJECT...]",
		Short: "Stop every apply of a project (CLI, CI, serve) until kubeplan resume, recording who and why",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runParents(cmd, s, f, args, "suspended", run.SuspendOp(strings.TrimSpace(f.Reason), s.env()("GITHUB_ACTOR"), s.env()("USER")))
		},
	}
	f.Bind(cmd.Flags(), "suspend")
	return withHelp(cmd, "suspend", true)
}

func newResumeCmd(s streams) *cobra.Command {
	f := &arguments.Suspend{}
	cmd := &cobra.Command{
		Use:   "resume [PROJECT...]",
		Short: "Let applies of a suspended project run again",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runParents(cmd, s, f, args, "resumed", run.ResumeOp(s.env()("GITHUB_ACTOR"), s.env()("USER")))
		},
	}
	f.Bind(cmd.Flags(), "resume")
	return withHelp(cmd, "resume", true)
}

func newSyncCmd(s streams) *cobra.Command {
	f := &arguments.Sync{}
	cmd := &cobra.Command{
		Use:   "sync [PROJECT...]",
		Short: "Apply a project now: here, as kubeplan apply does, or through kubeplan serve (--via-serve)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.Check(args); err != nil {
				return err
			}
			if !f.ViaServe {
				return runApply(cmd, s, &f.Apply, f.Paths())
			}
			return parents(cmd, s, f.ServeRequest(s.env(), s.opener(cmd, &f.Input, &f.Select)), f.Output, "synced", run.SyncRequestOp(f.Wait, syncPoll))
		},
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "sync", true)
}

// runParents is suspend or resume: op on the parent of each selected
// project, or of the set -n and --applyset name.
func runParents(cmd *cobra.Command, s streams, f *arguments.Suspend, args []string, verb string, op run.ParentOp) error {
	if err := f.Check(args); err != nil {
		return err
	}
	return parents(cmd, s, f.Request(s.env(), s.opener(cmd, &f.Input, &f.Select)), f.Output, verb, op)
}

// parents runs op over the parents q selects (run.EachParent) and shows
// what it did; a single set's error is the command's, several sets'
// failures are listed and counted.
func parents(cmd *cobra.Command, s streams, q run.Request, output, verb string, op run.ParentOp) error {
	ctx := s.stopOnSignal(cmd)
	t, err := run.Connect(q)
	if err != nil {
		return err
	}
	p, err := t.Prepare(ctx)
	if err != nil {
		return err
	}
	rs := run.EachParent(ctx, p.Projects, p.Options.Connect, p.Options.Single, op)
	if err := render.Suspends(s.out, output, verb, rs); err != nil {
		return err
	}
	var failed []string
	for _, r := range rs {
		if r.Err == nil {
			continue
		}
		if len(rs) == 1 {
			return r.Err
		}
		failed = append(failed, r.Project)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d projects failed: %s", len(failed), len(rs), strings.Join(failed, ", "))
	}
	return nil
}
