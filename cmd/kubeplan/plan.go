package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/workspace"
)

type planFlags struct {
	input            arguments.Input
	git              arguments.Git
	cluster          arguments.Cluster
	out              string
	output           string
	detailedExitcode bool
	githubToken      string
	comment          bool
	sel              arguments.Select
}

func newPlanCmd(s streams) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan [PATH...]",
		Short: "Show what apply would change in the cluster: server-side dry-run, field diff, drift, prune preview",
		Long: `Plan what applying the manifests would change, without changing anything: lint first, then
the permissions the apply needs, a server-side dry-run of every object, a diff against the live
object, drift (fields changed by hand) and the members of the ApplySet (--applyset) that would
be pruned. --source URL plans a branch of a git repository; --out FILE saves the plan for
kubeplan apply FILE. --all, --project or --changed-since plan each project of kubeplan.yaml
against its own cluster, namespace and ApplySet. Values decrypted from SOPS files are *** in
every output. In GitHub Actions secrets are masked, and the plan goes to the step summary, the
step outputs and a pull-request comment (--comment).

Reference: docs/plan.md, docs/plan-output.md, docs/projects.md, docs/helm.md, docs/sops.md,
docs/action.md.

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan plan -n store --applyset configmap/gitops-applyset manifests/
  kubeplan plan -n store --applyset configmap/gitops-applyset -o markdown manifests/ > plan.md
  kubeplan plan -n store --applyset configmap/gitops-applyset --out tfplan --detailed-exitcode manifests/
  kubeplan plan -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref topic --path manifests
  kubeplan plan --all --detailed-exitcode
  kubeplan plan --changed-since origin/main --out plans/`,
		RunE: func(cmd *cobra.Command, args []string) error { return runPlan(cmd, s, f, args) },
	}
	f.input.Bind(cmd.Flags())
	f.input.BindDecrypt(cmd.Flags())
	f.cluster.Bind(cmd.Flags())
	fl := cmd.Flags()
	f.git.Bind(fl, "plan")
	fl.StringVar(&f.out, "out", "", "also write the plan to this file, for kubeplan apply PLANFILE (holds Secret values: keep it private); over projects, a directory of one file per project, for kubeplan comment")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(planFormats(), ", ")+" (github: text, the GitHub Actions extras come with GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.detailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none (1 stays any error)")
	fl.StringVar(&f.githubToken, "github-token", "", "token for the pull-request comment in GitHub Actions (default $GITHUB_TOKEN)")
	f.sel.Bind(fl, "plan")
	fl.BoolVar(&f.comment, "comment", true, "in GitHub Actions on a pull_request event with a token: create or update the plan comment on the pull request")
	return cmd
}

// planFormats are the --output values plan takes.
func planFormats() []string { return append(render.PlanFormats(), "github") }

func runPlan(cmd *cobra.Command, s streams, f *planFlags, args []string) error {
	format, err := f.format()
	if err != nil {
		return err
	}
	if err := f.git.Check(args); err != nil {
		return err
	}
	// SIGINT or SIGTERM stops every phase (loading, rendering, lint,
	// requests) within 2 s, with exit 1 and nothing written.
	ctx := s.stopOnSignal(cmd)
	if f.sel.On() {
		return planProjects(ctx, cmd, s, f, format, args)
	}
	client, as, err := connect(&f.cluster)
	if err != nil {
		return err
	}
	var gh *ghview.Run
	if s.githubMode() {
		gh = singleRunView(s, f, client, as)
	}
	r, err := planSingle(ctx, cmd, s, f, client, as, args, gh)
	if err != nil {
		return failedIn(ctx, gh, err)
	}
	pl := r.Projects[0].Plan
	if err := s.writing(ctx, func() error {
		if err := savePlan(f.out, pl); err != nil {
			return err
		}
		return showSinglePlan(ctx, s, format, r, gh)
	}); err != nil {
		return err
	}
	if f.detailedExitcode && pl.HasChanges() {
		return exitError{exitChanges}
	}
	return nil
}

// format is --output; github is text (GitHub mode comes from
// GITHUB_ACTIONS=true; see --help).
func (f *planFlags) format() (string, error) {
	format := f.output
	if format == "github" {
		format = "text"
	}
	if !slices.Contains(render.PlanFormats(), format) {
		return "", fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(planFormats(), ", "))
	}
	return format, nil
}

// savePlan writes the plan to --out, when given.
func savePlan(out string, pl *plan.Plan) error {
	if out == "" {
		return nil
	}
	return plan.Save(out, pl)
}

// singleRunView is GitHub mode for a plain plan: one comment per
// cluster, namespace and ApplySet.
func singleRunView(s streams, f *planFlags, client *kube.Client, as *applyset.Parent) *ghview.Run {
	token := f.githubToken
	if token == "" {
		token = s.env()("GITHUB_TOKEN")
	}
	return ghview.NewRun(s.env(), s.err, ghview.RunOptions{Token: token, Comment: f.comment, Version: kubeplanVersion(), Single: true,
		Secrets: []string{f.cluster.Token(), f.git.Password()}, Cluster: kube.ContextName(f.cluster.Kube), Namespace: client.Namespace, ApplySet: applySetName(as)})
}

// planSingle reads the source and runs it as the one project its flags
// make (workspace.Single) through run.Plan: lint, then the plan against
// client's namespace and the ApplySet as. Lint's errors are shown on
// stderr; the error is the project's.
func planSingle(ctx context.Context, cmd *cobra.Command, s streams, f *planFlags, client *kube.Client, as *applyset.Parent, args []string, gh *ghview.Run) (*run.Report, error) {
	src, err := checkout(ctx, &f.git, args)
	if err != nil {
		return nil, err
	}
	if f.git.Source != "" {
		render.Planning(s.err, src.rev)
	}
	ws, err := s.open(cmd.Context(), &f.input, nil, workspace.Options{Checkout: src.root})
	if err != nil {
		return nil, err
	}
	p := ws.Single(src.paths, f.cluster.ApplySet)
	view := s.progress()
	defer view.Close()
	obs := runObserver{view: view}
	if gh != nil {
		obs.loaded = gh.Loaded
	}
	opts := run.Options{Workspace: ws, Connect: connected(client), Observer: obs,
		Plan: f.cluster.PlanOptions(client.Namespace, as, src.revision()), Lookup: true}
	// A chart's lookup reads the cluster, without the Secrets' data.
	opts.Plan.SecretDataWithheld = true
	r, err := run.Plan(ctx, []project.Project{p}, opts)
	return singleReport(ctx, s, r, err)
}
