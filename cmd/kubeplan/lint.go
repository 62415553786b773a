package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/workspace"
)

func newLintCmd(s streams) *cobra.Command {
	f := &arguments.Lint{}
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check manifests offline: YAML, schemas, CRDs, removed APIs and footgun policies",
		RunE:  func(cmd *cobra.Command, args []string) error { return runLint(cmd, s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "lint", true)
}

func runLint(cmd *cobra.Command, s streams, f *arguments.Lint, args []string) error {
	format, err := f.Format(s.githubMode())
	if err != nil {
		return err
	}
	if f.ListRules {
		return render.Rules(s.out, format, lint.Rules())
	}
	// SIGINT or SIGTERM stops loading, rendering and lint within 2 s, with
	// exit 1 and no report.
	ctx := s.stopOnSignal(cmd)
	in, opts, none, err := workspace.LintInput(f.Options(s.options(ctx, &f.Input, &f.Select, workspace.Options{})), args, f.Namespace)
	if err != nil {
		return err
	}
	if none { // nothing to lint: an empty report, not the current directory
		return render.Lint(s.out, format, lint.Report{}, render.LintOptions{ToolVersion: kubeplanVersion(), Rules: lint.Rules()})
	}
	var gh *ghview.Lint
	if format == "github" || s.githubMode() {
		gh = ghview.NewLint(s.env(), s.err)
		opts.Loaded = gh.Loaded
	}
	opts.ListObjects = format == "junit" // a testcase per object, passing ones too
	rep, _, err := lint.Check(in, opts)
	if err != nil {
		return err
	}
	if err := showLint(ctx, s, format, rep, gh); err != nil {
		return err
	}
	if rep.Count(lint.Error) > 0 {
		return exitError{exitFailed}
	}
	return nil
}

// showLint writes the report as format, and to the GitHub view gh when
// not nil; an interrupted run writes nothing.
func showLint(ctx context.Context, s streams, format string, rep lint.Report, gh *ghview.Lint) error {
	ro := render.LintOptions{Color: format == "text" && s.color(s.out), ToolVersion: kubeplanVersion(), Rules: lint.Rules()}
	return s.writing(ctx, func() error {
		if err := render.Lint(s.out, format, rep, ro); err != nil {
			return err
		}
		if gh != nil {
			return gh.Done(rep)
		}
		return nil
	})
}
