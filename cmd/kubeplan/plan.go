package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

type planFlags struct {
	input            lintFlags
	git              gitFlags
	kube             *genericclioptions.ConfigFlags
	applySet         string
	fieldManager     string
	out              string
	output           string
	detailedExitcode bool
	adopt            bool
	otherNamespaces  bool
	concurrency      int
	githubToken      string
	comment          bool
}

func newPlanCmd(s streams) *cobra.Command {
	f := &planFlags{kube: kube.Flags()}
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

--source URL --ref BRANCH [--path DIR] plans a branch of a git repository instead of local paths
(the same cache as kubeplan apply --source; the revision is named on stderr and in the plan).

In GitHub Actions (GITHUB_ACTIONS=true) the plan is printed as --output says, and also:
  - the token (--github-token or $GITHUB_TOKEN) and every Secret value in the manifests are
    registered with ::add-mask:: (on stderr) before anything else is printed (line by line;
    values shorter than 4 characters are not masked);
  - drifted objects (on the line that defines them) and prunes get ::warning annotations;
  - the plan as markdown is appended to $GITHUB_STEP_SUMMARY (cut to stay under 1 MiB);
  - the outputs has-changes (true/false) and summary (the "Plan: ..." line) are written to
    $GITHUB_OUTPUT;
  - on pull_request and pull_request_target events with a token, one comment per namespace
    and ApplySet is created on the pull request, then updated by later runs (--comment=false
    turns this off). The workflow needs "permissions: pull-requests: write". A comment that
    cannot be written is a warning and does not change the exit code. A failed plan updates
    the comment and the summary to say so.

Exit codes: 0 success, 1 error (lint, permissions, dry-run), 2 bad flags; with
--detailed-exitcode: 0 no changes, 1 error, 2 changes.`,
		Example: `  kubeplan plan -n store --applyset configmap/gitops-applyset manifests/
  kubeplan plan -n store --applyset configmap/gitops-applyset -o markdown manifests/ > plan.md
  kubeplan plan -n store --applyset configmap/gitops-applyset --out plan.json --detailed-exitcode manifests/
  kubeplan plan -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref topic --path manifests`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlan(cmd, s, f, args)
		},
	}
	f.input.addInputFlags(cmd)
	f.kube.AddFlags(cmd.Flags())
	fl := cmd.Flags()
	f.git.add(fl, "plan")
	fl.StringVar(&f.applySet, "applyset", "", "the ApplySet the manifests belong to, as RESOURCE/NAME (configmap/NAME or secret/NAME): enables the prune preview")
	fl.StringVar(&f.fieldManager, "field-manager", "kubeplan", "server-side apply field manager")
	fl.StringVar(&f.out, "out", "", "also write the plan to this file, for kubeplan apply PLANFILE (holds Secret values: keep it private)")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(planFormats(), ", ")+" (github: text, the GitHub Actions extras come with GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.detailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none")
	fl.BoolVar(&f.adopt, "adopt", false, "take over an ApplySet made by other tooling (kubectl): its members become prunable")
	fl.BoolVar(&f.otherNamespaces, "allow-other-namespaces", false, "allow objects that name a namespace other than -n (by default an error)")
	fl.IntVar(&f.concurrency, "concurrency", 16, "requests in flight")
	fl.StringVar(&f.githubToken, "github-token", "", "token for the pull-request comment in GitHub Actions (default $GITHUB_TOKEN)")
	fl.BoolVar(&f.comment, "comment", true, "in GitHub Actions on a pull_request event with a token: create or update the plan comment on the pull request")
	return cmd
}

// planFormats are the --output values plan takes.
func planFormats() []string { return append(render.PlanFormats(), "github") }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func runPlan(cmd *cobra.Command, s streams, f *planFlags, args []string) error {
	format := f.output
	if format == "github" {
		format = "text" // GitHub mode comes from GITHUB_ACTIONS=true; see --help
	}
	if !slices.Contains(render.PlanFormats(), format) {
		return usage(fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(planFormats(), ", ")))
	}
	if err := f.git.check(args); err != nil {
		return usage(err)
	}
	gh := newPlanGitHub(s, githubToken(f.githubToken), f.comment, deref(f.kube.BearerToken), f.git.password())
	client, err := kube.New(f.kube)
	if err != nil {
		return usage(err)
	}
	ns := client.Namespace
	f.input.namespace = ns
	if f.otherNamespaces {
		f.input.namespace = "" // namespace-mismatch is what the flag allows
	}
	opts := plan.Options{Namespace: ns, FieldManager: f.fieldManager, Adopt: f.adopt, Concurrency: f.concurrency, AllowOtherNamespaces: f.otherNamespaces}
	if f.applySet != "" {
		as, err := applyset.ParseParentFlag(f.applySet, ns)
		if err != nil {
			return usage(err)
		}
		opts.ApplySet = &as
		gh.scope(ns, as.String())
	} else {
		gh.scope(ns, "")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	args, root, rev, err := f.git.checkout(ctx, args)
	if err != nil {
		gh.failed(ctx, err)
		return err
	}
	if rev != nil {
		opts.Revision = rev.SHA
		fmt.Fprintf(s.err, "planning %s %s\n", rev.ShortSHA, rev.Subject)
	}
	objs, err := lintForPlan(cmd, s, &f.input, args, root, gh.loaded)
	if err != nil {
		gh.failed(ctx, err)
		return err
	}
	pl, err := plan.Make(ctx, client, objs, opts)
	if err != nil {
		gh.failed(ctx, err)
		return err
	}
	if f.out != "" {
		if err := plan.Save(f.out, pl); err != nil {
			return err
		}
	}
	ro := render.PlanOptions{Color: format == "text" && colorEnabled(s.out)}
	if err := render.Plan(s.out, format, pl, ro); err != nil {
		return err
	}
	if err := gh.done(ctx, pl); err != nil {
		return err
	}
	if f.detailedExitcode && pl.HasChanges() {
		return exitError{2}
	}
	return nil
}

// lintForPlan loads the set and lints it; error-level findings stop the plan
// before any request is made. File names are shown relative to root when
// it is set (the checkout of a git source). loaded, when not nil, sees the
// objects before anything about them is printed (GitHub mode masks their
// Secret values).
func lintForPlan(cmd *cobra.Command, s streams, f *lintFlags, args []string, root string, loaded func([]*manifest.Object)) ([]*manifest.Object, error) {
	opts, exclude, crdPaths, err := lintSetup(cmd, f)
	if err != nil {
		return nil, usage(err)
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	res, err := manifest.Load(args, manifest.Options{Exclude: exclude, Stdin: s.in})
	if err != nil {
		return nil, usage(err)
	}
	if root != "" {
		relativeTo(root, res)
	}
	if loaded != nil {
		loaded(res.Objects)
	}
	if len(crdPaths) > 0 {
		crdRes, err := manifest.Load(crdPaths, manifest.Options{})
		if err != nil {
			return nil, usage(fmt.Errorf("--crds: %w", err))
		}
		opts.CRDs = crdRes.Objects
	}
	rep, err := lint.Run(res, opts)
	if err != nil {
		return nil, usage(err)
	}
	if n := rep.Count(lint.Error); n > 0 {
		var errs []lint.Finding
		for _, fd := range rep.Findings {
			if fd.Severity == lint.Error {
				errs = append(errs, fd)
			}
		}
		rep.Findings = errs
		_ = render.Lint(s.err, "text", rep, render.LintOptions{Color: colorEnabled(s.err)})
		return nil, fmt.Errorf("lint found %d error(s); nothing was sent to the cluster", n)
	}
	return res.Objects, nil
}

// relativeTo names files relative to root, so findings read
// "manifests/deployment.yaml:6:13" rather than a path in the git cache.
func relativeTo(root string, res *manifest.Result) {
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	for _, o := range res.Objects {
		o.File = rel(o.File)
	}
	for _, p := range res.Problems {
		p.File = rel(p.File)
	}
}
