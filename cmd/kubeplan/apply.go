package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
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
)

type applyFlags struct {
	planFlags
	wait       bool
	timeout    time.Duration
	allowEmpty bool
	interval   time.Duration
	drift      string
}

func newApplyCmd(s streams) *cobra.Command {
	f := &applyFlags{planFlags: planFlags{kube: kube.Flags()}}
	cmd := &cobra.Command{
		Use:   "apply [PATH... | PLANFILE]",
		Short: "Make the cluster match the manifests: all or nothing, ordered, pruning only what left the set",
		Long: `Apply the manifests (or a plan saved by kubeplan plan --out).

Without a plan file, apply plans first (lint, permissions, server-side dry-run) and writes nothing
unless every object passed. Then it writes the ApplySet parent, applies the changed objects with
server-side apply (Namespaces and CRDs first), skips unchanged ones, prunes the members that left
the set only after every apply succeeded, and waits until the applied objects are healthy.
With a plan file it refuses, before any write, a plan the cluster moved away from.

A member carrying the annotation kubeplan.dev/prune: disabled is never pruned. One apply runs at a
time per ApplySet (a Lease in the namespace).

--source URL --ref BRANCH [--path DIR] reads the manifests from git instead (cloned once, then
fetched and reset on every run); --interval 30s keeps reconciling until stopped; --drift=report
only plans and exits 2 on drift or changes.

Ctrl-C or SIGTERM: while planning, apply stops before any write; during the health wait it stops
waiting and exits 1 (the run is recorded as failed); writes under way always finish, and a second
signal kills. With --interval the run under way finishes, then the loop exits 0.

In GitHub Actions (GITHUB_ACTIONS=true) $GITHUB_TOKEN, a cluster --token and every Secret value
in the manifests (or the saved plan) are registered with ::add-mask:: before anything else is
printed; the result (one row per object, the summary line, the error if it failed) is appended to
$GITHUB_STEP_SUMMARY, and the outputs has-changes (true when an object was created, configured
or pruned; with --drift=report: when the plan has changes) and summary (the "Apply: ..." or
"Plan: ..." line) are written to $GITHUB_OUTPUT.

Exit codes: 0 applied (or nothing to do), 1 failed, 2 bad flags (with --drift=report: 2 changes).`,
		Example: `  kubeplan apply -n store --applyset configmap/gitops-applyset manifests/
  kubeplan apply plan.json
  kubeplan apply -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref main --path manifests --interval 30s`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApply(cmd, s, f, args)
		},
	}
	f.input.addInputFlags(cmd)
	f.kube.AddFlags(cmd.Flags())
	fl := cmd.Flags()
	fl.StringVar(&f.applySet, "applyset", "", "the ApplySet the manifests belong to, as configmap/NAME or secret/NAME: enables pruning")
	fl.StringVar(&f.fieldManager, "field-manager", "kubeplan", "server-side apply field manager")
	fl.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	fl.BoolVar(&f.adopt, "adopt", false, "take over an ApplySet made by other tooling (kubectl) and prune its members")
	fl.IntVar(&f.concurrency, "concurrency", 16, "requests in flight")
	fl.BoolVar(&f.otherNamespaces, "allow-other-namespaces", false, "allow objects that name a namespace other than -n (by default an error)")
	fl.BoolVar(&f.wait, "wait", true, "wait until the applied objects are healthy")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Minute, "how long --wait waits")
	fl.BoolVar(&f.allowEmpty, "allow-empty", false, "allow an empty manifest set to prune every member of the ApplySet")
	f.git.add(fl, "apply")
	fl.DurationVar(&f.interval, "interval", 0, "keep reconciling at this interval until stopped (SIGTERM finishes the current run)")
	fl.StringVar(&f.drift, "drift", "repair", "repair: apply; report: only plan and exit 2 when the cluster differs")
	return cmd
}

func runApply(cmd *cobra.Command, s streams, f *applyFlags, args []string) error {
	if f.output != "text" && f.output != "json" {
		return usage(fmt.Errorf("unknown --output %q: want text or json", f.output))
	}
	if f.drift != "repair" && f.drift != "report" {
		return usage(fmt.Errorf("unknown --drift %q: want repair or report", f.drift))
	}
	if err := f.git.check(args); err != nil {
		return usage(err)
	}
	client, err := kube.New(f.kube)
	if err != nil {
		return usage(err)
	}
	var as *applyset.Parent
	if f.applySet != "" {
		p, err := applyset.ParseParentFlag(f.applySet, client.Namespace)
		if err != nil {
			return usage(err)
		}
		as = &p
	}
	gh := newApplyGitHub(s, client.Namespace, as, deref(f.kube.BearerToken), f.git.password())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.interval <= 0 {
		// Ctrl-C or SIGTERM stops planning (nothing is written) or the
		// health wait; writes under way always finish (apply.Execute).
		// A second signal kills the process.
		go func() { <-ctx.Done(); stop() }()
		return applyOnce(ctx, cmd, s, f, client, args, as, gh)
	}
	for {
		// A run is never interrupted half way: SIGTERM ends the loop after it.
		if err := applyOnce(context.Background(), cmd, s, f, client, args, as, gh); err != nil {
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

// applyOnce is one reconcile: read the source, plan, lock, apply, report.
// In GitHub mode every outcome, failures included, is reported by gh.
func applyOnce(ctx context.Context, cmd *cobra.Command, s streams, f *applyFlags, client *kube.Client, args []string, as *applyset.Parent, gh *applyGitHub) error {
	var rev *manifest.Revision
	var res *apply.Result
	err := applyRun(ctx, cmd, s, f, client, args, as, gh, &rev, &res)
	if f.drift == "report" && err == nil {
		return nil // reported by gh.planned
	}
	if gerr := gh.applied(res, rev, err); err == nil {
		err = gerr
	}
	return err
}

// applyRun does applyOnce's work and sets *rev and *res as it learns them.
func applyRun(ctx context.Context, cmd *cobra.Command, s streams, f *applyFlags, client *kube.Client, args []string, as *applyset.Parent, gh *applyGitHub, revp **manifest.Revision, resp **apply.Result) error {
	ns := client.Namespace
	args, root, rev, err := f.git.checkout(ctx, args)
	if err != nil {
		return err
	}
	*revp = rev
	saved, err := savedPlan(args)
	if err != nil {
		return err
	}
	gh.savedPlan(saved)
	if saved != nil && as == nil && saved.Parent != nil {
		p := applyset.Parent{Kind: saved.Parent.Ref.Kind, Name: saved.Parent.Ref.Name, Namespace: saved.Parent.Ref.Namespace}
		as = &p
	}
	var pl *plan.Plan
	if saved != nil {
		if err := plan.CheckFresh(ctx, client, saved); err != nil {
			return err
		}
		pl = saved
	} else {
		f.input.namespace = ns
		if f.otherNamespaces {
			f.input.namespace = ""
		}
		objs, err := lintForPlan(cmd, s, &f.input, args, root, gh.loaded)
		if err != nil {
			return err
		}
		opts := plan.Options{Namespace: ns, FieldManager: f.fieldManager, ApplySet: as, Adopt: f.adopt, Concurrency: f.concurrency, AllowOtherNamespaces: f.otherNamespaces}
		if rev != nil {
			opts.Revision = rev.SHA
		}
		if pl, err = plan.Make(ctx, client, objs, opts); err != nil {
			return err
		}
	}
	if f.drift == "report" {
		if err := render.Plan(s.out, "text", pl, render.PlanOptions{Color: colorEnabled(s.out)}); err != nil {
			return err
		}
		if err := gh.planned(pl); err != nil {
			return err
		}
		if pl.HasChanges() {
			return exitError{2}
		}
		return nil
	}
	revision := ""
	if rev != nil {
		revision = rev.SHA
	}
	if inSync(pl, revision) {
		// Nothing to write, not even the record: no lock, zero writes.
		*resp = unchangedResult(pl)
		printApply(s, f.output, *resp, rev)
		return nil
	}
	if as != nil {
		lock, err := apply.AcquireLock(ctx, client, apply.LockOptions{Namespace: as.Namespace, Name: "kubeplan-lock-" + as.Name})
		if err != nil {
			return err
		}
		defer lock.Release(context.Background())
		// The plan was made before the lock: refuse to act on it if
		// another apply moved the cluster meanwhile.
		if err := plan.CheckFresh(ctx, client, pl); err != nil {
			return err
		}
	}
	opts := apply.Options{FieldManager: f.fieldManager, ApplySet: as, Version: kubeplanVersion(), Concurrency: f.concurrency,
		AllowEmpty: f.allowEmpty, Wait: f.wait, Timeout: f.timeout, Progress: s.err}
	if rev != nil {
		opts.Revision = rev.SHA
	}
	res, err := apply.Execute(ctx, client, pl, opts)
	*resp = res
	if res != nil {
		printApply(s, f.output, res, rev)
	}
	return err
}

// savedPlan returns the plan when args name one saved plan file.
func savedPlan(args []string) (*plan.Plan, error) {
	if len(args) != 1 {
		return nil, nil
	}
	fi, err := os.Stat(args[0])
	if err != nil || fi.IsDir() || !strings.HasSuffix(args[0], ".json") {
		return nil, nil
	}
	data, err := os.ReadFile(args[0])
	if err != nil || !strings.Contains(string(data), `"KubeplanPlan"`) {
		return nil, nil
	}
	return plan.Load(args[0])
}

func printApply(s streams, format string, res *apply.Result, rev *manifest.Revision) {
	if format == "json" {
		out := struct {
			*apply.Result
			Revision *manifest.Revision `json:"revision,omitempty"`
		}{res, rev}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return
	}
	objs := make([]render.ApplyObject, 0, len(res.Objects))
	for _, o := range res.Objects {
		fmt.Fprintf(s.out, "%s %s\n", o.Ref, o.Outcome)
		objs = append(objs, render.ApplyObject{Object: o.Ref.String(), Outcome: string(o.Outcome)})
	}
	fmt.Fprintln(s.out, render.ApplySummary(objs))
	if rev != nil {
		fmt.Fprintf(s.out, "in sync with %s %s\n", rev.ShortSHA, rev.Subject)
	}
}

// inSync reports whether applying pl would write nothing at all: no object
// changes, and the ApplySet parent already records this revision as ok.
func inSync(pl *plan.Plan, revision string) bool {
	if pl.HasChanges() {
		return false
	}
	if pl.Parent == nil {
		return true
	}
	return pl.Parent.Exists && pl.Parent.Result == "ok" && (revision == "" || pl.Parent.Revision == revision)
}

func unchangedResult(pl *plan.Plan) *apply.Result {
	res := &apply.Result{}
	for _, ch := range pl.Changes {
		res.Objects = append(res.Objects, apply.ObjectResult{Ref: ch.Ref, Outcome: apply.Unchanged})
	}
	return res
}
