package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
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
	in, opts, err := f.input.check(cmd, s, args, f.namespace)
	if err != nil {
		return err
	}
	if f.changedSince != "" || len(f.projects) > 0 || f.all {
		var depCRDs []string
		if in.ProjectRoot, in.Projects, depCRDs, err = lintProjects(cmd, s, f, args, in.Load.Exclude); err != nil {
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
// directory), as kubeplan.yaml declares them (project.Load), that
// --project names (all when none) and that a change since --changed-since
// affects (all when none). --kube-version, when given, is the version of
// them all. crds are the paths of the projects they depend on: their CRDs
// validate the custom resources of the selected ones.
func lintProjects(cmd *cobra.Command, s streams, f *lintFlags, args, exclude []string) (root string, ps []project.Project, crds []string, err error) {
	if root, err = projectRoot(args); err != nil {
		return "", nil, nil, err
	}
	sel := selectFlags{projects: f.projects, all: f.all, changedSince: f.changedSince}
	f.input.from = root
	cfg, err := f.input.config(s)
	if err != nil {
		return "", nil, nil, err
	}
	ps, all, err := sel.choose(cfg, root, exclude)
	if err != nil {
		return "", nil, nil, err
	}
	return root, ps, projectCRDs(cmd, root, ps, all), nil
}

// declaredFirst lints the projects kubeplan.yaml declares (projects:) with
// their settings, values files included, when no project flag is given:
// those in or reading a directory PATH (the current directory without
// one), those reading a file PATH (a values file, a patch, a template, as
// the pre-commit hook passes them). The config is --config, else the
// kubeplan.yaml found walking up from the first PATH; it declares projects
// only when it is in the git work tree holding that PATH, at or above it.
// The paths no declared project covers are linted as they are.
func declaredFirst(cmd *cobra.Command, s streams, f *lintFlags, args []string, in *lint.Input) error {
	paths := args
	if len(paths) == 0 {
		paths = []string{"."}
	}
	from := paths[0]
	if fi, err := os.Stat(from); err != nil || !fi.IsDir() {
		from = filepath.Dir(from)
	}
	if fi, err := os.Stat(from); err != nil || !fi.IsDir() {
		return nil // a PATH that does not exist: lint says so, as it always has
	}
	f.input.from = from
	cfg, err := f.input.config(s)
	if err != nil || cfg.Dir == "" || cfg.Projects == nil {
		return err
	}
	// Only the repository's own config declares its projects: one in the
	// git work tree holding PATH, at or above PATH (a --config elsewhere
	// has settings, not projects, and its directory is never walked).
	fromAbs, err := filepath.Abs(from)
	if err != nil {
		return err
	}
	if !confine.Inside(cfg.Dir, fromAbs) || !confine.Inside(config.RepoRoot(fromAbs), cfg.Dir) {
		return nil
	}
	root := config.RelToWD(cfg.Dir)
	all, err := project.Load(root, cfg, project.Options{Exclude: in.Load.Exclude})
	if err != nil {
		return err
	}
	ps, rest := project.ForPaths(root, all, paths)
	if len(ps) == 0 {
		return nil
	}
	in.ProjectRoot, in.Projects, in.Paths = root, ps, rest
	in.CRDPaths = append(in.CRDPaths, projectCRDs(cmd, root, ps, all)...)
	return nil
}

// projectCRDs are the paths of the projects ps depend on: their CRDs
// validate the custom resources of ps. --kube-version, when given, is
// the version of ps (their own is cleared).
func projectCRDs(cmd *cobra.Command, root string, ps, all []project.Project) []string {
	var crds []string
	seen := map[string]bool{}
	for i := range ps {
		if cmd.Flags().Changed("kube-version") {
			ps[i].KubeVersion = ""
		}
		for _, d := range project.Dependencies(all, ps[i]) {
			for _, p := range run.Paths(root, d) {
				if !seen[p] {
					seen[p] = true
					crds = append(crds, p)
				}
			}
		}
	}
	return crds
}

// byName keeps the projects of ps named in names; a name that is not a
// project of all is an error listing the names there are.
func byName(ps, all []project.Project, names []string) ([]project.Project, error) {
	known := map[string]bool{}
	var list []string
	for _, p := range all {
		known[p.Name] = true
		list = append(list, p.Name)
	}
	for _, n := range names {
		if !known[n] {
			return nil, fmt.Errorf("--project %s: no such project (kubeplan projects lists them: %s)", n, strings.Join(list, ", "))
		}
	}
	var out []project.Project
	for _, p := range ps {
		if slices.Contains(names, p.Name) {
			out = append(out, p)
		}
	}
	return out, nil
}
