package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/workspace"
)

type lintFlags struct {
	input        arguments.Input
	output       string
	namespace    string
	listRules    bool
	changedSince string
	projects     []string
	all          bool
}

func newLintCmd(s streams) *cobra.Command {
	f := &lintFlags{}
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check manifests offline: YAML, schemas, CRDs, removed APIs and footgun policies",
		Long: `Lint Kubernetes manifests without touching any network or cluster: YAML, schemas, CRDs,
apiVersions removed in --kube-version, footgun rules and ValidatingAdmissionPolicies (--policies).
PATH is a file, a directory, a kustomize directory or - (standard input); default the current
directory. Nothing outside the checkout is read. Every finding names file:line:col; a rule is
skipped for one object with the annotation kubeplan.dev/ignore: RULE,RULE. Settings come from
kubeplan.yaml (or --config). In GitHub Actions the output is annotations and a step summary.

Reference: docs/lint.md (what is read, rules, formats), docs/config.md (kubeplan.yaml),
docs/projects.md (--all, --project, --changed-since), docs/policies.md, docs/action.md.

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan lint deploy/
  kubeplan lint --output sarif . > kubeplan.sarif
  kubeplan lint --policies policies/ deploy/
  cat app.yaml | kubeplan lint -
  kubeplan lint --list-rules`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, s, f, args) },
	}
	f.input.Bind(cmd.Flags())
	f.input.BindKeyFile(cmd.Flags())
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "", "output format: "+strings.Join(render.LintFormats(), ", ")+" (default text, or github when GITHUB_ACTIONS=true)")
	fl.StringVarP(&f.namespace, "namespace", "n", "", "namespace the manifests are meant for (enables namespace-mismatch)")
	fl.StringVar(&f.changedSince, "changed-since", "", "lint only the projects a change since this git revision affects (see kubeplan projects --help)")
	fl.StringArrayVar(&f.projects, "project", nil, "lint only this project, by the name kubeplan projects shows (repeatable)")
	fl.BoolVar(&f.all, "all", false, "lint every project under PATH (the default for a directory; with --changed-since or --project it narrows)")
	fl.BoolVar(&f.listRules, "list-rules", false, "list every rule with its id, default severity and description, then exit")
	fl.StringArrayVar(&f.input.Policies, "policies", nil, "file or directory of ValidatingAdmissionPolicies, their bindings, parameter objects and the CRDs of their paramKinds to judge the manifests with (repeatable); policies the API server would refuse are errors (docs/policies.md)")
	fl.IntVar(&f.input.Concurrency, "concurrency", 0, "files and objects checked in parallel (default: number of CPUs)")
	return cmd
}

func runLint(cmd *cobra.Command, s streams, f *lintFlags, args []string) error {
	format, err := f.format(cmd, s)
	if err != nil {
		return err
	}
	if f.listRules {
		return render.Rules(s.out, format, lint.Rules())
	}
	// SIGINT or SIGTERM stops loading, rendering and lint within 2 s, with
	// exit 1 and no report.
	ctx := s.stopOnSignal(cmd)
	in, opts, none, err := lintInput(cmd, s, f, args)
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

// format is --output, else github in GitHub Actions, else text.
func (f *lintFlags) format(cmd *cobra.Command, s streams) (string, error) {
	format := f.output
	if !cmd.Flags().Changed("output") {
		format = "text"
		if s.githubMode() {
			format = "github"
		}
	}
	if !slices.Contains(render.LintFormats(), format) {
		return "", fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.LintFormats(), ", "))
	}
	return format, nil
}

// lintInput is what lint reads, from kubeplan.yaml and the flags: with a
// project flag the projects selected (none: an empty selection), else
// the projects kubeplan.yaml declares under the paths and the paths no
// declared project covers.
func lintInput(cmd *cobra.Command, s streams, f *lintFlags, args []string) (lint.Input, lint.Options, bool, error) {
	ws, err := s.open(cmd.Context(), &f.input, nil, workspace.Options{})
	if err != nil {
		return lint.Input{}, lint.Options{}, false, err
	}
	in, opts, err := ws.Lint(workspace.Set{Paths: args, Namespace: f.namespace})
	if err != nil {
		return in, opts, false, err
	}
	if f.changedSince == "" && len(f.projects) == 0 && !f.all {
		return in, opts, false, declaredFirst(cmd, s, f, args, &in)
	}
	var depCRDs []string
	if in.ProjectRoot, in.Projects, depCRDs, err = lintProjects(cmd, s, f, args); err != nil {
		return in, opts, false, err
	}
	in.Paths = nil
	in.CRDPaths = append(in.CRDPaths, depCRDs...)
	return in, opts, len(in.Projects) == 0, nil
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

// lintProjects are the projects under PATH (one, or the current
// directory), as kubeplan.yaml declares them, that --project names (all
// when none) and that a change since --changed-since affects (all when
// none), as the workspace selects them; crds are the paths of the
// projects they depend on (workspace.ForLint).
func lintProjects(cmd *cobra.Command, s streams, f *lintFlags, args []string) (root string, ps []project.Project, crds []string, err error) {
	if root, err = workspace.RootOf(args); err != nil {
		return "", nil, nil, err
	}
	sel := arguments.Select{Projects: f.projects, All: f.all, ChangedSince: f.changedSince}
	ws, err := s.open(cmd.Context(), &f.input, &sel, workspace.Options{From: root, Root: root})
	if err != nil {
		return "", nil, nil, err
	}
	if ps, _, err = ws.Select(); err != nil {
		return "", nil, nil, err
	}
	ps, crds, err = ws.ForLint(ps)
	return root, ps, crds, err
}

// declaredFirst lints the projects kubeplan.yaml declares (projects:) with
// their settings, values files included, when no project flag is given
// (workspace.Declared); the paths no declared project covers are linted
// as they are.
func declaredFirst(cmd *cobra.Command, s streams, f *lintFlags, args []string, in *lint.Input) error {
	from, ok := workspace.DeclaredFrom(args)
	if !ok {
		return nil
	}
	ws, err := s.open(cmd.Context(), &f.input, nil, workspace.Options{From: from})
	if err != nil {
		return err
	}
	d, ps, rest, err := ws.Declared(from, args)
	if err != nil || d == nil {
		return err
	}
	ps, crds, err := d.ForLint(ps)
	if err != nil {
		return err
	}
	in.ProjectRoot, in.Projects, in.Paths = d.Root(), ps, rest
	in.CRDPaths = append(in.CRDPaths, crds...)
	return nil
}
