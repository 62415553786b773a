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
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

type applyFlags struct {
	input       inputFlags
	git         gitFlags
	cluster     clusterFlags
	output      string
	wait        bool
	timeout     time.Duration
	allowEmpty  bool
	interval    time.Duration
	drift       string
	autoApprove bool
	replace     []string
	sel         selectFlags
}

func newApplyCmd(s streams) *cobra.Command {
	f := &applyFlags{}
	cmd := &cobra.Command{
		Use:   "apply [PATH... | PLANFILE]",
		Short: "Make the cluster match the manifests: all or nothing, ordered, pruning only what left the set",
		Long: `Apply the manifests (or a plan saved by kubeplan plan --out, recognised by its content).

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

` + exitCodesHelp,
		Example: `  kubeplan apply -n store --applyset configmap/gitops-applyset manifests/
  kubeplan apply tfplan
  kubeplan apply -n store --applyset configmap/gitops-applyset --replace deployment/web manifests/
  kubeplan apply -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref main --path manifests --interval 30s
  kubeplan apply --all --auto-approve`,
		RunE: func(cmd *cobra.Command, args []string) error { return runApply(cmd, s, f, args) },
	}
	f.input.add(cmd)
	f.input.addDecrypt(cmd)
	f.cluster.add(cmd)
	fl := cmd.Flags()
	f.git.add(fl, "apply")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: "+strings.Join(render.ApplyFormats(), ", "))
	fl.BoolVar(&f.wait, "wait", true, "wait until the applied objects are healthy")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Minute, "bounds the whole run: plan, writes, prune and the health wait")
	fl.BoolVar(&f.allowEmpty, "allow-empty", false, "allow an empty manifest set to prune every member of the ApplySet")
	fl.DurationVar(&f.interval, "interval", 0, "keep reconciling at this interval until stopped (SIGTERM finishes the current run)")
	fl.StringVar(&f.drift, "drift", "repair", "repair: apply; report: only plan and exit 2 when the cluster differs")
	fl.BoolVar(&f.autoApprove, "auto-approve", false, "do not ask before writing (apply never asks outside a terminal or with CI=true)")
	f.sel.add(fl, "apply")
	fl.StringArrayVar(&f.replace, "replace", nil, "replace this object (KIND/NAME, e.g. deployment/web) when a change to an immutable field needs it (repeatable)")
	return cmd
}

func runApply(cmd *cobra.Command, s streams, f *applyFlags, args []string) error {
	if !slices.Contains(render.ApplyFormats(), f.output) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.output, strings.Join(render.ApplyFormats(), ", "))
	}
	if f.drift != "repair" && f.drift != "report" {
		return fmt.Errorf("unknown --drift %q: want repair or report", f.drift)
	}
	if err := f.git.check(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var once func(context.Context, []string) error
	if f.sel.on() {
		once = func(ctx context.Context, args []string) error { return applyProjects(ctx, cmd, s, f, args) }
	} else {
		client, as, err := f.cluster.connect()
		if err != nil {
			return err
		}
		r := &applyRun{cmd: cmd, s: s, f: f, client: client, as: as}
		if s.githubMode() {
			r.gh = ghview.NewApply(s.env(), s.err, client.Namespace, applySetName(as), deref(f.cluster.kube.BearerToken), f.git.password())
		}
		once = r.once
	}
	if f.interval <= 0 {
		// Ctrl-C or SIGTERM stops planning (nothing is written) or the
		// health wait; writes under way always finish (apply.Execute).
		// A second signal kills the process.
		go func() { <-ctx.Done(); stop() }()
		return once(ctx, args)
	}
	for {
		// A run is never interrupted half way: SIGTERM ends the loop after it.
		if err := once(context.Background(), args); err != nil {
			var ee exitError
			if !errors.As(err, &ee) {
				fmt.Fprintln(s.err, "kubeplan: "+err.Error())
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(f.interval):
		}
	}
}

// applyRun is one apply command: flags, connection and views.
type applyRun struct {
	cmd    *cobra.Command
	s      streams
	f      *applyFlags
	client *kube.Client
	as     *applyset.Parent
	gh     *ghview.Apply
}

// once is one reconcile: read the source (or the saved plan), lint, plan,
// ask, then apply.Reconcile; every outcome is shown by the views. A run
// that fails before writing is recorded on the ApplySet parent.
func (r *applyRun) once(ctx context.Context, args []string) error {
	deadline := time.Now().Add(r.f.timeout)
	planCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	view := r.s.progress()
	defer view.Close()
	rep := render.ApplyReport{}
	pl, as, saved, err := r.plan(planCtx, args, &rep, view)
	if r.f.drift == "report" {
		if err != nil {
			return err // report mode records nothing
		}
		return r.report(pl)
	}
	if err == nil {
		err = apply.CheckReplaces(pl.Changes, r.f.replace)
	}
	if err == nil {
		err = apply.CheckOwners(pl, r.f.cluster.adopt)
	}
	if err == nil && !saved { // a saved plan was reviewed when it was made
		view.Close()
		err = r.approve(pl)
	}
	if err == nil {
		opts := apply.Options{FieldManager: r.f.cluster.fieldManager, ApplySet: as, Version: kubeplanVersion(), Concurrency: r.f.cluster.concurrency,
			AllowEmpty: r.f.allowEmpty, Wait: r.f.wait, Timeout: r.f.timeout, Deadline: deadline, Reporter: view,
			Revision: pl.Revision, Replace: r.f.replace, LockDuration: lockDuration(r.s), Adopt: r.f.cluster.adopt}
		rep.Result, err = apply.Reconcile(ctx, r.client, pl, opts)
		view.Close() // the bar ends before the result is printed
	} else if as != nil && run.Recordable(err) {
		err = errors.Join(err, apply.RecordFailure(ctx, r.client, *as, r.f.cluster.fieldManager, err))
	}
	if err != nil {
		rep.Err = err.Error()
	}
	if rep.Result != nil {
		if verr := render.Apply(r.s.out, r.f.output, rep); verr != nil {
			err = errors.Join(err, verr)
		}
	}
	if r.gh != nil {
		if gerr := r.gh.Applied(rep); err == nil {
			err = gerr
		}
	}
	return err
}

// plan returns the plan to apply: the saved plan named by args (saved is
// then true), or a new one of the source. It fills in what the report
// shows about the source.
func (r *applyRun) plan(ctx context.Context, args []string, rep *render.ApplyReport, view *render.ProgressView) (pl *plan.Plan, as *applyset.Parent, saved bool, err error) {
	as = r.as
	if len(args) == 1 {
		sp, err := plan.Detect(args[0])
		if err != nil {
			return nil, as, false, err
		}
		if sp != nil {
			if r.gh != nil {
				r.gh.SavedPlan(sp)
			}
			if as == nil && sp.Parent != nil {
				p := applyset.Parent{Kind: sp.Parent.Ref.Kind, Name: sp.Parent.Ref.Name, Namespace: sp.Parent.Ref.Namespace}
				as = &p
			}
			return sp, as, true, r.client.Ping(ctx)
		}
	}
	src, err := r.f.git.checkout(ctx, args)
	if err != nil {
		return nil, as, false, err
	}
	rep.Revision = src.rev
	var loaded func([]*manifest.Object)
	if r.gh != nil {
		loaded = r.gh.Loaded
	}
	r.cmd.SetContext(ctx) // loading, lint and policies share the run's deadline and signal
	// A chart's lookup reads the cluster, Secrets' data included (apply
	// writes what the chart derives from it), once per run.
	r.f.input.lookup, r.f.input.withhold = plan.NewLookup(r.client), false
	objs, err := loadSet(r.cmd, r.s, &r.f.input, src, r.f.cluster.lintNamespace(r.client), loaded)
	if err != nil {
		return nil, as, false, err
	}
	if err := r.client.Ping(ctx); err != nil {
		return nil, as, false, err
	}
	pl, err = plan.Make(ctx, r.client, objs, r.f.cluster.planOptions(r.client, as, src.revision(), view.Planning))
	return pl, as, false, err
}

// report is --drift=report: show the plan, exit 2 when it has changes.
func (r *applyRun) report(pl *plan.Plan) error {
	if err := render.Plan(r.s.out, "text", pl, render.PlanOptions{Color: r.s.color(r.s.out)}); err != nil {
		return err
	}
	if r.gh != nil {
		if err := r.gh.Planned(pl); err != nil {
			return err
		}
	}
	if pl.HasChanges() {
		return exitError{exitChanges}
	}
	return nil
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
