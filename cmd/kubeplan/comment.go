package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

type commentFlags struct {
	output      string
	githubToken string
	config      string
}

func newCommentCmd(s streams) *cobra.Command {
	f := &commentFlags{}
	cmd := &cobra.Command{
		Use:   "comment DIR|FILE...",
		Short: "Merge the project plans of separate jobs (plan --out DIR) into one pull-request comment",
		Long: `Merge the project plans kubeplan plan --all|--project|--changed-since --out DIR wrote in
separate jobs (NAME.kubeplan.json files, or directories holding them) into the one plan comment
of the run. In GitHub Actions on a pull request it creates or updates that comment (give the
same --config as the plan jobs: it names the comment's scope); elsewhere it prints the merged
plan. The exit code is 1 when a project failed or was skipped.

Reference: docs/projects.md, docs/action.md.

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan comment plans/
  kubeplan comment -o text plans/dev plans/prod`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runComment(s, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "markdown", "output format outside GitHub Actions: "+strings.Join(render.RunPlanFormats(), ", "))
	fl.StringVar(&f.githubToken, "github-token", "", "token for the pull-request comment (default $GITHUB_TOKEN)")
	fl.StringVar(&f.config, "config", "kubeplan.yaml", "the config the plans were made with: it names the comment's scope")
	return cmd
}

func runComment(s streams, f *commentFlags, args []string) error {
	if !slices.Contains(render.RunPlanFormats(), f.output) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.RunPlanFormats(), ", "))
	}
	r, err := run.LoadFiles(args)
	if err != nil {
		return err
	}
	if s.githubMode() {
		gh := newRunView(s, f.githubToken, true, &projectRun{scope: f.config}, nil, "")
		if err := gh.Done(context.Background(), r); err != nil {
			return err
		}
	} else if err := render.RunPlan(s.out, f.output, r, render.RunOptions{Color: f.output == "text" && s.color(s.out)}); err != nil {
		return err
	}
	return r.Err()
}
