package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
)

type planFlags struct {
	input            inputFlags
	git              gitFlags
	cluster          clusterFlags
	out              string
	output           string
	detailedExitcode bool
	githubToken      string
	comment          bool
	sel              selectFlags
}

func newPlanCmd(s streams) *cobra.Command {
	f := &planFlags{}
	cmd := &cobra.Command{
		Use:   "plan [PATH...]",
		Short: "Show what apply would change in the cluster: server-side dry-run, field diff, drift, prune preview",
		Long: `Plan what applying the manifests would change, without changing anything.

The manifests are linted first; any error-level finding stops the plan before a request is
made. Then kubeplan checks that the identity may do everything the apply needs
(SelfSubjectAccessReviews; every missing permission is listed with the kubectl auth can-i
command that shows it), dry-runs every object server-side (except those whose live state
provably holds what kubeplan last applied), diffs it against the live object,
and lists the members of the ApplySet (--applyset) that are no longer in the manifests: they
would be pruned. Fields someone changed in the cluster by hand are reported as drift.

A created object is shown as written in the manifests (--show-defaults: as the server would
store it). A change the server refuses because a field is immutable is planned as
"-/+ replace" (kubeplan apply --replace KIND/NAME carries it out); the rest is still planned.
When a HorizontalPodAutoscaler targets a Deployment or StatefulSet, its spec.replicas is left
to the autoscaler: never drift, never written.

--source URL --ref BRANCH [--path DIR] plans a branch of a git repository instead of local paths
(the same cache as kubeplan apply --source; the revision is named on stderr and in the plan).
--out FILE saves the plan for kubeplan apply FILE (any file name).

--all, --project NAME (repeatable) or --changed-since REF [ROOT] plan the projects of the
repository at ROOT (kubeplan projects lists them), each against its own cluster, namespace and
ApplySet from kubeplan.yaml, concurrently (4 at a time per cluster) and after the projects it
dependsOn: a section per project, then a total line. A failed project does not hide the others
(the ones that depend on it are skipped); the exit code is the worst one. --out DIR then writes
one file per project for kubeplan comment, and GitHub mode writes one comment for the whole run.

Values decrypted from SOPS files are *** in every output, wherever a kustomization copied them
(replacements, generators, patches); --out FILE and --out DIR refuse a plan holding them.

In GitHub Actions (GITHUB_ACTIONS=true) the plan is printed as --output says, and also:
  - the token (--github-token or $GITHUB_TOKEN), every Secret value in the manifests and every
    value decrypted from SOPS are registered with ::add-mask:: (on stderr) before anything else
    is printed (line by line; values shorter than 4 characters are not masked);
  - drifted objects (on the line that defines them) and prunes get ::warning annotations;
  - the plan as markdown is appended to $GITHUB_STEP_SUMMARY (cut to stay under 1 MiB);
  - the outputs has-changes (true/false) and summary (the "Plan: ..." line) are written to
    $GITHUB_OUTPUT;
  - on pull_request and pull_request_target events with a token, one comment per namespace
    and ApplySet is created on the pull request, then updated by later runs (--comment=false
    turns this off). The workflow needs "permissions: pull-requests: write". A comment that
    cannot be written is a warning and does not change the exit code. A failed plan updates
    the comment and the summary to say so.

` + exitCodesHelp,
		Example: `  kubeplan plan -n store --applyset configmap/gitops-applyset manifests/
  kubeplan plan -n store --applyset configmap/gitops-applyset -o markdown manifests/ > plan.md
  kubeplan plan -n store --applyset configmap/gitops-applyset --out tfplan --detailed-exitcode manifests/
  kubeplan plan -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref topic --path manifests
  kubeplan plan --all --detailed-exitcode
  kubeplan plan --changed-since origin/main --out plans/`,
		RunE: func(cmd *cobra.Command, args []string) error { return runPlan(cmd, s, f, args) },
	}
	f.input.add(cmd)
	f.input.addDecrypt(cmd)
	f.cluster.add(cmd)
	fl := cmd.Flags()
	f.git.add(fl, "plan")
	fl.StringVar(&f.out, "out", "", "also write the plan to this file, for kubeplan apply PLANFILE (holds Secret values: keep it private); over projects, a directory of one file per project, for kubeplan comment")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(planFormats(), ", ")+" (github: text, the GitHub Actions extras come with GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.detailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none (1 stays any error)")
	fl.StringVar(&f.githubToken, "github-token", "", "token for the pull-request comment in GitHub Actions (default $GITHUB_TOKEN)")
	f.sel.add(fl, "plan")
	fl.BoolVar(&f.comment, "comment", true, "in GitHub Actions on a pull_request event with a token: create or update the plan comment on the pull request")
	return cmd
}

// planFormats are the --output values plan takes.
func planFormats() []string { return append(render.PlanFormats(), "github") }

func runPlan(cmd *cobra.Command, s streams, f *planFlags, args []string) error {
	format := f.output
	if format == "github" {
		format = "text" // GitHub mode comes from GITHUB_ACTIONS=true; see --help
	}
	if !slices.Contains(render.PlanFormats(), format) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(planFormats(), ", "))
	}
	if err := f.git.check(args); err != nil {
		return err
	}
	// SIGINT or SIGTERM stops every phase (loading, rendering, lint,
	// requests) within 2 s, with exit 1 and nothing written.
	ctx := s.stopOnSignal(cmd)
	if f.sel.on() {
		return planProjects(ctx, cmd, s, f, format, args)
	}
	client, as, err := f.cluster.connect()
	if err != nil {
		return err
	}
	var gh *ghview.Plan
	if s.githubMode() {
		token := f.githubToken
		if token == "" {
			token = s.env()("GITHUB_TOKEN")
		}
		gh = ghview.NewPlan(s.env(), s.err, ghview.PlanOptions{Token: token, Comment: f.comment, Version: kubeplanVersion(),
			Secrets: []string{deref(f.cluster.kube.BearerToken), f.git.password()}, Cluster: kube.ContextName(f.cluster.kube), Namespace: client.Namespace, ApplySet: applySetName(as)})
	}
	pl, err := makePlan(ctx, cmd, s, f, client, as, args, gh)
	if err != nil {
		if gh != nil && ctx.Err() == nil { // an interrupted plan writes nothing
			gh.Failed(ctx, err)
		}
		return err
	}
	if err := s.writing(ctx, func() error {
		if f.out != "" {
			if err := plan.Save(f.out, pl); err != nil {
				return err
			}
		}
		if err := render.Plan(s.out, format, pl, render.PlanOptions{Color: format == "text" && s.color(s.out)}); err != nil {
			return err
		}
		if gh != nil {
			return gh.Done(ctx, pl)
		}
		return nil
	}); err != nil {
		return err
	}
	if f.detailedExitcode && pl.HasChanges() {
		return exitError{exitChanges}
	}
	return nil
}

// makePlan reads the source, lints it and plans it.
func makePlan(ctx context.Context, cmd *cobra.Command, s streams, f *planFlags, client *kube.Client, as *applyset.Parent, args []string, gh *ghview.Plan) (*plan.Plan, error) {
	src, err := f.git.checkout(ctx, args)
	if err != nil {
		return nil, err
	}
	if f.git.source != "" {
		render.Planning(s.err, src.rev)
	}
	var loaded func([]*manifest.Object)
	if gh != nil {
		loaded = gh.Loaded
	}
	// A chart's lookup reads the cluster, without the Secrets' data.
	f.input.lookup, f.input.withhold = plan.NewLookup(client), true
	objs, err := loadSet(cmd, s, &f.input, src, f.cluster.lintNamespace(client), loaded)
	if err != nil {
		return nil, err
	}
	if err := client.Ping(ctx); err != nil {
		return nil, err
	}
	view := s.progress()
	defer view.Close()
	opts := f.cluster.planOptions(client, as, src.revision(), view.Planning)
	opts.SecretDataWithheld = true
	return plan.Make(ctx, client, objs, opts)
}
