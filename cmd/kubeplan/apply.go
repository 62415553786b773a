package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

type applyFlags struct {
	input       arguments.Input
	git         arguments.Git
	cluster     arguments.Cluster
	output      string
	wait        bool
	timeout     time.Duration
	allowEmpty  bool
	interval    time.Duration
	drift       string
	autoApprove bool
	replace     []string
	sel         arguments.Select
}

func newApplyCmd(s streams) *cobra.Command {
	f := &applyFlags{}
	cmd := &cobra.Command{
		Use:   "apply [PATH... | PLANFILE]",
		Short: "Make the cluster match the manifests: all or nothing, ordered, pruning only what left the set",
		Long:  applyHelp + arguments.ExitCodesHelp(),
		Example: `  kubeplan apply -n store --applyset configmap/gitops-applyset manifests/
  kubeplan apply tfplan
  kubeplan apply -n store --applyset configmap/gitops-applyset --replace deployment/web manifests/
  kubeplan apply -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref main --path manifests --interval 30s
  kubeplan apply --all --auto-approve`,
		RunE: func(cmd *cobra.Command, args []string) error { return runApply(cmd, s, f, args) },
	}
	f.input.Bind(cmd.Flags())
	f.input.BindDecrypt(cmd.Flags())
	f.cluster.Bind(cmd.Flags())
	fl := cmd.Flags()
	f.git.Bind(fl, "apply")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(render.ApplyFormats(), ", "))
	fl.BoolVar(&f.wait, "wait", true, "wait until the applied objects are healthy")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Minute, "bounds the whole run: plan, writes, prune and the health wait")
	fl.BoolVar(&f.allowEmpty, "allow-empty", false, "allow an empty manifest set to prune every member of the ApplySet")
	fl.DurationVar(&f.interval, "interval", 0, "keep reconciling at this interval until stopped (SIGTERM finishes the current run)")
	fl.StringVar(&f.drift, "drift", "repair", "repair: apply; report: only plan and exit 2 when the cluster differs")
	fl.BoolVar(&f.autoApprove, "auto-approve", false, "do not ask before writing (apply never asks outside a terminal or with CI=true)")
	f.sel.Bind(fl, "apply")
	fl.StringArrayVar(&f.replace, "replace", nil, "replace this object (KIND/NAME, e.g. deployment/web) when a change to an immutable field needs it (repeatable)")
	return cmd
}

// applyHelp is apply's --help, before the exit codes.
const applyHelp = `Apply the manifests (or a plan saved by kubeplan plan --out, recognised by its content).

Without a plan file, apply plans first (lint, permissions, server-side dry-run) and writes nothing
unless every object passed. In a terminal it then shows the plan and asks before writing, as
Terraform does (only 'yes' is accepted); it does not ask with --auto-approve, with a plan file,
with --interval, when stdin is not a terminal, or when CI=true.

Then it writes the ApplySet parent, applies the changed objects with server-side apply
(Namespaces and CRDs first), skips unchanged ones, prunes the members that left the set only
after every apply succeeded, and waits until the applied objects are healthy. With a plan file
it refuses, before any write, a plan the cluster moved away from.

Objects whose change the server refuses because a field is immutable are replaced (deleted,
waited for, created) only when named with --replace KIND/NAME or annotated
kubeplan.dev/replace: allow; PersistentVolumeClaims, Namespaces and CRDs never are.
A member carrying the annotation kubeplan.dev/prune: disabled is never pruned. One apply runs at
a time per ApplySet (a Lease in the namespace). Without --applyset, objects that already belong
to an ApplySet keep their applyset.kubernetes.io/part-of label, so they stay in that set.

The run is recorded on the ApplySet parent (kubeplan status): the revision (the git commit of
--source, or the HEAD of the repository holding the paths, +dirty when it has changes), when an
object was last written, when the set was last checked, and the result with its error.

A Helm chart's lookup reads the cluster, as helm upgrade does (Secrets' data included); fields
the chart generates or derives from a looked-up Secret keep their live value where the object has
them, so a generated password never rotates (docs/helm.md). A saved plan holds such looked-up
values hidden: apply reads them live again before writing.

--source URL --ref BRANCH [--path DIR] reads the manifests from git instead (cloned once, then
fetched and reset on every run); --interval 30s keeps reconciling until stopped; --drift=report
only plans and exits 2 when applying would change anything.

--all, --project NAME (repeatable) or --changed-since REF [ROOT] apply the projects of the
repository at ROOT (kubeplan projects lists them), each as its own ApplySet against its own
cluster and namespace from kubeplan.yaml: all are planned first, apply asks once, then each is
applied after the projects it dependsOn (4 at a time per cluster). A project that fails is
recorded as failed on its ApplySet and the projects that depend on it are skipped; the others are
applied. The exit code is 1 when any project failed or was skipped.

Ctrl-C or SIGTERM: while planning, apply stops before any write; during the health wait it stops
waiting and exits 1 (the run is recorded as failed); writes under way always finish, and a second
signal kills. With --interval the run under way finishes, then the loop exits 0.

In GitHub Actions (GITHUB_ACTIONS=true) $GITHUB_TOKEN, a cluster --token and every Secret value
in the manifests (or the saved plan) are registered with ::add-mask:: before anything else is
printed; the result (one row per object, the summary line, the error if it failed) is appended to
$GITHUB_STEP_SUMMARY, and the outputs has-changes (true when an object was created, configured,
replaced or pruned; with --drift=report: when the plan has changes) and summary (the "Apply: ..."
or "Plan: ..." line) are written to $GITHUB_OUTPUT.

`

func runApply(cmd *cobra.Command, s streams, f *applyFlags, args []string) error {
	if !slices.Contains(render.ApplyFormats(), f.output) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.ApplyFormats(), ", "))
	}
	if f.drift != "repair" && f.drift != "report" {
		return fmt.Errorf("unknown --drift %q: want repair or report", f.drift)
	}
	if err := f.git.Check(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	once, err := f.runner(cmd, s, args)
	if err != nil {
		return err
	}
	if f.interval <= 0 {
		// Ctrl-C or SIGTERM stops planning (nothing is written) or the
		// health wait; writes under way always finish (apply.Execute).
		// A second signal kills the process.
		go func() { <-ctx.Done(); stop() }()
		return once(ctx)
	}
	// A run is never interrupted half way: SIGTERM ends the loop after it.
	run.Loop(ctx, func() time.Duration {
		var ee exitError
		if err := once(context.Background()); err != nil && !errors.As(err, &ee) {
			fmt.Fprintln(s.err, "kubeplan: "+err.Error())
		}
		return f.interval
	})
	return nil
}

// runner is one run of the command: over projects, or of the one project
// its flags make.
func (f *applyFlags) runner(cmd *cobra.Command, s streams, args []string) (func(context.Context) error, error) {
	if f.sel.On() {
		return func(ctx context.Context) error { return applyProjects(ctx, cmd, s, f, args) }, nil
	}
	a, err := newSingleApply(cmd, s, f, args)
	if err != nil {
		return nil, err
	}
	return a.once, nil
}

// applyOptions are the apply settings of every project of the run.
func (f *applyFlags) applyOptions(s streams, deadline time.Time, view *render.ProgressView) apply.Options {
	o := apply.Options{FieldManager: f.cluster.FieldManager, Version: kubeplanVersion(), Concurrency: f.cluster.Concurrency,
		AllowEmpty: f.allowEmpty, Wait: f.wait, Timeout: f.timeout, Deadline: deadline, Replace: f.replace,
		LockDuration: lockDuration(s), Adopt: f.cluster.Adopt}
	if view != nil {
		o.Reporter = view
	}
	return o
}

// lockDuration is the Lease duration of the apply lock: 60s, or
// $KUBEPLAN_LOCK_DURATION (for the fault tests, which stop a holder past
// its Lease).
func lockDuration(s streams) time.Duration {
	d, err := time.ParseDuration(s.env()("KUBEPLAN_LOCK_DURATION"))
	if err != nil || d < time.Second {
		return 0
	}
	return d
}
