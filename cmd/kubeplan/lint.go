package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/render"
)

type lintFlags struct {
	kubeVersion   string
	output        string
	configFile    string
	exclude       []string
	crds          []string
	ignoreMissing bool
	namespace     string
	listRules     bool
	concurrency   int
}

func newLintCmd(s streams) *cobra.Command {
	f := &lintFlags{}
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check manifests offline: YAML, schemas, CRDs, removed APIs and footgun policies",
		Long: `Lint Kubernetes manifests without touching any network or cluster.

PATH may be a file, a directory (read recursively: .yaml, .yml, .json), a kustomize
directory (one with kustomization.yaml, built in-process), or - for standard input.
Without PATH the current directory is linted.

Every finding names file:line:col. Objects are validated against the Kubernetes ` + "1.37" + `
schemas built into kubeplan, custom resources against the CustomResourceDefinitions in the
set or in --crds, and apiVersions against what --kube-version serves.

Skip a rule for one object with the annotation
  kubeplan.dev/ignore: image-latest,replicas-zero

Settings are read from .kubeplan.yaml in the current directory (or --config):
  kubeVersion: "1.35"          # like --kube-version
  exclude: ["charts/**"]       # like --exclude
  crds: ["crds/"]              # like --crds
  ignoreMissingSchemas: false  # like --ignore-missing-schemas
  rules:                       # off, error, warning or info per rule id
    image-latest: warning

In GitHub Actions (GITHUB_ACTIONS=true) the default output is github: annotations on the
lines, errors first, at most 10 errors and 10 warnings (GitHub shows no more per step) and a
notice counting the rest. With -o github or in GitHub Actions, the full report is also appended
to $GITHUB_STEP_SUMMARY and the outputs errors, warnings and summary are written to
$GITHUB_OUTPUT. Every Secret value in the manifests is registered with ::add-mask:: (on stderr)
before anything is printed.

Exit codes: 0 no error-level finding, 1 error-level findings, 2 lint could not run
(bad flag, unreadable path, bad config).`,
		Example: `  kubeplan lint deploy/
  kubeplan lint --output sarif . > kubeplan.sarif
  cat app.yaml | kubeplan lint -
  kubeplan lint --list-rules`,
		RunE: func(cmd *cobra.Command, args []string) error {
			// lint's own failures mean it could not run: exit 2 (1 is findings).
			var ee exitError
			if err := runLint(cmd, s, f, args); err != nil && !errors.As(err, &ee) {
				return usage(err)
			} else {
				return err
			}
		},
	}
	f.addInputFlags(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&f.output, "output", "o", "", "output format: "+strings.Join(render.LintFormats(), ", ")+" (default text, or github when GITHUB_ACTIONS=true)")
	fl.StringVarP(&f.namespace, "namespace", "n", "", "namespace the manifests are meant for (enables namespace-mismatch)")
	fl.BoolVar(&f.listRules, "list-rules", false, "list every rule with its id, default severity and description, then exit")
	fl.IntVar(&f.concurrency, "concurrency", 0, "files and objects checked in parallel (default: number of CPUs)")
	return cmd
}

func runLint(cmd *cobra.Command, s streams, f *lintFlags, args []string) error {
	format, err := lintFormat(cmd, f.output)
	if err != nil {
		return err
	}
	if f.listRules {
		return listRules(s, format)
	}
	opts, exclude, crdPaths, err := lintSetup(cmd, f)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	loadOpts := manifest.Options{Exclude: exclude, Stdin: s.in, Concurrency: f.concurrency}
	srcs, err := manifest.Collect(args, loadOpts)
	if err != nil {
		return err
	}
	var crdProblems []*manifest.Problem
	if len(crdPaths) > 0 {
		crdRes, err := manifest.Load(crdPaths, manifest.Options{Concurrency: f.concurrency})
		if err != nil {
			return fmt.Errorf("--crds: %w", err)
		}
		opts.CRDs = crdRes.Objects
		crdProblems = crdRes.Problems
	}
	if format == "github" || githubMode() {
		// Secret values are never in a finding; masking them anyway keeps
		// them out of the log should a message ever quote one.
		m := newMasker(s.err)
		var mu sync.Mutex
		opts.Loaded = func(objs []*manifest.Object) {
			mu.Lock()
			defer mu.Unlock()
			m.objects(objs)
		}
	}
	rep, err := lint.RunSources(srcs, opts)
	if err != nil {
		return err
	}
	if len(crdProblems) > 0 {
		for _, p := range crdProblems {
			rep.Findings = append(rep.Findings, lint.Finding{File: p.File, Line: p.Line, Col: p.Col,
				Severity: lint.Error, Rule: p.Rule, Message: p.Message})
		}
		lint.Sort(rep.Findings)
	}
	ro := render.LintOptions{Color: format == "text" && colorEnabled(s.out), ToolVersion: kubeplanVersion()}
	for _, r := range lint.Rules() {
		ro.Rules = append(ro.Rules, render.RuleInfo{ID: r.ID, Description: r.Description, Severity: r.Severity})
	}
	if err := render.Lint(s.out, format, rep, ro); err != nil {
		return err
	}
	if format == "github" || githubMode() {
		if err := lintGitHubFiles(s, rep); err != nil {
			return err
		}
	}
	if rep.Count(lint.Error) > 0 {
		return exitError{exitFindings}
	}
	return nil
}

// lintGitHubFiles appends the full report to the job summary and writes
// the outputs errors, warnings and summary.
func lintGitHubFiles(s streams, rep lint.Report) error {
	stepSummary(s, "kubeplan lint", func(w io.Writer, room int) error {
		return render.LintMarkdown(w, rep, room)
	})
	return stepOutputs(
		"errors", strconv.Itoa(rep.Count(lint.Error)),
		"warnings", strconv.Itoa(rep.Count(lint.Warning)),
		"summary", render.LintSummary(rep),
	)
}

func lintFormat(cmd *cobra.Command, output string) (string, error) {
	if !cmd.Flags().Changed("output") {
		if os.Getenv("GITHUB_ACTIONS") == "true" {
			return "github", nil
		}
		return "text", nil
	}
	if !slices.Contains(render.LintFormats(), output) {
		return "", fmt.Errorf("unknown --output %q: want one of %s", output, strings.Join(render.LintFormats(), ", "))
	}
	return output, nil
}

func listRules(s streams, format string) error {
	rules := lint.Rules()
	if format == "json" {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(rules)
	}
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tKIND\tDESCRIPTION")
	for _, r := range rules {
		k := "check"
		if r.Policy {
			k = "policy"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, k, r.Description)
	}
	return tw.Flush()
}

// lintSetup reads the config file and the flags into lint options, the
// exclude globs and the extra CRD paths.
func lintSetup(cmd *cobra.Command, f *lintFlags) (lint.Options, []string, []string, error) {
	cfgPath, explicit := f.configFile, f.configFile != ""
	if !explicit {
		cfgPath = config.DefaultFile
	}
	cfg, err := config.Load(cfgPath, explicit)
	if err != nil {
		return lint.Options{}, nil, nil, err
	}
	opts := lint.Options{
		KubeVersion:          cfg.KubeVersion,
		Namespace:            f.namespace,
		IgnoreMissingSchemas: cfg.IgnoreMissingSchemas || f.ignoreMissing,
		Concurrency:          f.concurrency,
		Rules:                map[string]lint.RuleSetting{},
	}
	if cmd.Flags().Changed("kube-version") {
		opts.KubeVersion = f.kubeVersion
	}
	if opts.KubeVersion, err = lint.NormalizeKubeVersion(opts.KubeVersion); err != nil {
		return lint.Options{}, nil, nil, err
	}
	for id, v := range cfg.Rules {
		if !lint.KnownRule(id) {
			return lint.Options{}, nil, nil, fmt.Errorf("%s: unknown rule %q (kubeplan lint --list-rules shows them)", cfg.Where(id), id)
		}
		rs, err := lint.ParseRuleSetting(v)
		if err != nil {
			return lint.Options{}, nil, nil, fmt.Errorf("%s: %w", cfg.Where(id), err)
		}
		opts.Rules[id] = rs
	}
	exclude := append(append([]string{}, cfg.Exclude...), f.exclude...)
	crdPaths := append(append([]string{}, cfg.CRDs...), f.crds...)
	return opts, exclude, crdPaths, nil
}

// addInputFlags registers the flags that say what to read and how to lint
// it, shared by lint and plan.
func (f *lintFlags) addInputFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.kubeVersion, "kube-version", "", "Kubernetes version to check served APIs against (1.33 to 1.37; default 1.37)")
	fl.StringVar(&f.configFile, "config", "", "config file (default .kubeplan.yaml in the current directory, if present)")
	fl.StringArrayVar(&f.exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringArrayVar(&f.crds, "crds", nil, "file or directory of extra CustomResourceDefinitions (repeatable)")
	fl.BoolVar(&f.ignoreMissing, "ignore-missing-schemas", false, "report custom resources without a CRD as warnings, not errors")
}
