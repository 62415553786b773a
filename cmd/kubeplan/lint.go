package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/workspace"
)

type lintFlags struct {
	input        inputFlags
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
		Long: `Lint Kubernetes manifests without touching any network or cluster.

PATH may be a file, a directory (read recursively: .yaml, .yml, .json), a kustomize
directory (one with kustomization.yaml, built in-process), or - for standard input.
Without PATH the current directory is linted. Nothing outside the checkout (the git work
tree holding the working directory) is read: a PATH inside it, and every file kubeplan.yaml,
--crds, --policies, values files and schema $refs name, must resolve inside it, symbolic links
followed, and be a regular file of at most 64 MiB. A directory holding several projects (overlays,
bases, Components: see kubeplan projects) is linted project by project: bases and Components are
built only in the overlays that use them, and duplicate-object compares objects within a project.
When kubeplan.yaml declares projects (projects:), PATH lints the declared ones it holds or that
read a file in it, and a file PATH (a values file, a patch, a chart template, as the pre-commit
hook passes them) the declared projects that read it: each with its settings, a chart with its
values files and release name; a PATH no declared project reads is linted as it is.
With --all, --project or --changed-since the projects are those kubeplan projects lists (the
ones kubeplan.yaml declares), each linted with its kubeVersion and namespace, and
duplicate-object also compares projects that apply to one cluster and namespace.

Every finding names file:line:col. Objects are validated against the Kubernetes ` + "1.37" + `
schemas built into kubeplan, custom resources against the CustomResourceDefinitions in the
set or in --crds, and apiVersions against what --kube-version serves.

ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1) and their bindings, in the set,
in --policies or under policies: in kubeplan.yaml, judge every object as the API server would
judge its CREATE (rule admission-policy): a Deny binding's failure is an error, Warn a warning,
Audit an info, with the API server's message. Parameters (paramRef) and the Namespaces that
namespaceSelector matches come from the set and the policy files. Expressions on authorizer or
request.userInfo are not evaluable offline (an info). kubeplan policy test runs a policy's test
cases (kubeplan-test.yaml).

Skip a rule for one object with the annotation
  kubeplan.dev/ignore: image-latest,replicas-zero

Settings are read from kubeplan.yaml, found by walking up from the working directory to the
root of the git repository (or --config); paths in it are relative to the file (docs/config.md
describes every key, and the projects it may declare):
  kubeVersion: "1.35"          # like --kube-version
  exclude: ["charts/**"]       # like --exclude
  crds: ["crds/"]              # like --crds
  policies: ["policies/"]      # like --policies
  ignoreMissingSchemas: false  # like --ignore-missing-schemas
  rules:                       # off, error, warning or info per rule id
    image-latest: warning

In GitHub Actions (GITHUB_ACTIONS=true) the default output is github: annotations on the
lines, errors first, at most 10 errors and 10 warnings (GitHub shows no more per step) and a
notice counting the rest. With -o github or in GitHub Actions, the full report is also appended
to $GITHUB_STEP_SUMMARY and the outputs errors, warnings and summary are written to
$GITHUB_OUTPUT. Every Secret value in the manifests is registered with ::add-mask:: (on stderr)
before anything is printed.

` + exitCodesHelp,
		Example: `  kubeplan lint deploy/
  kubeplan lint --output sarif . > kubeplan.sarif
  kubeplan lint --policies policies/ deploy/
  cat app.yaml | kubeplan lint -
  kubeplan lint --list-rules`,
		RunE: func(cmd *cobra.Command, args []string) error { return runLint(cmd, s, f, args) },
	}
	f.input.add(cmd)
	f.input.addKeyFile(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "", "output format: "+strings.Join(render.LintFormats(), ", ")+" (default text, or github when GITHUB_ACTIONS=true)")
	fl.StringVarP(&f.namespace, "namespace", "n", "", "namespace the manifests are meant for (enables namespace-mismatch)")
	fl.StringVar(&f.changedSince, "changed-since", "", "lint only the projects a change since this git revision affects (see kubeplan projects --help)")
	fl.StringArrayVar(&f.projects, "project", nil, "lint only this project, by the name kubeplan projects shows (repeatable)")
	fl.BoolVar(&f.all, "all", false, "lint every project under PATH (the default for a directory; with --changed-since or --project it narrows)")
	fl.BoolVar(&f.listRules, "list-rules", false, "list every rule with its id, default severity and description, then exit")
	fl.StringArrayVar(&f.input.policies, "policies", nil, "file or directory of ValidatingAdmissionPolicies, their bindings, parameter objects and the CRDs of their paramKinds to judge the manifests with (repeatable); policies the API server would refuse are errors (docs/policies.md)")
	fl.IntVar(&f.input.concurrency, "concurrency", 0, "files and objects checked in parallel (default: number of CPUs)")
	return cmd
}

func runLint(cmd *cobra.Command, s streams, f *lintFlags, args []string) error {
	format := f.output
	if !cmd.Flags().Changed("output") {
		format = "text"
		if s.githubMode() {
			format = "github"
		}
	}
	if !slices.Contains(render.LintFormats(), format) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.LintFormats(), ", "))
	}
	if f.listRules {
		return render.Rules(s.out, format, lint.Rules())
	}
	// SIGINT or SIGTERM stops loading, rendering and lint within 2 s, with
	// exit 1 and no report.
	ctx := s.stopOnSignal(cmd)
	ws, err := f.input.open(cmd, s, nil, workspace.Options{})
	if err != nil {
		return err
	}
	in, opts, err := f.input.set(ws, args, f.namespace)
	if err != nil {
		return err
	}
	if f.changedSince != "" || len(f.projects) > 0 || f.all {
		var depCRDs []string
		if in.ProjectRoot, in.Projects, depCRDs, err = lintProjects(cmd, s, f, args); err != nil {
			return err
		}
		in.Paths = nil
		in.CRDPaths = append(in.CRDPaths, depCRDs...)
		if len(in.Projects) == 0 {
			// nothing to lint: an empty report, not the current directory
			return render.Lint(s.out, format, lint.Report{}, render.LintOptions{ToolVersion: kubeplanVersion(), Rules: lint.Rules()})
		}
	} else if err := declaredFirst(cmd, s, f, args, &in); err != nil {
		return err
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
	ro := render.LintOptions{Color: format == "text" && s.color(s.out), ToolVersion: kubeplanVersion(), Rules: lint.Rules()}
	if err := s.writing(ctx, func() error {
		if err := render.Lint(s.out, format, rep, ro); err != nil {
			return err
		}
		if gh != nil {
			return gh.Done(rep)
		}
		return nil
	}); err != nil {
		return err
	}
	if rep.Count(lint.Error) > 0 {
		return exitError{exitFailed}
	}
	return nil
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
	sel := selectFlags{projects: f.projects, all: f.all, changedSince: f.changedSince}
	ws, err := f.input.open(cmd, s, &sel, workspace.Options{From: root, Root: root})
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
	ws, err := f.input.open(cmd, s, nil, workspace.Options{From: from})
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
