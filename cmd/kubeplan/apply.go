package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/startgc"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

func newApplyCmd(s streams) *cobra.Command {
	f := &arguments.Apply{}
	cmd := &cobra.Command{
		Use:   "apply [PATH... | PLANFILE]",
		Short: "Make the cluster match the manifests: all or nothing, ordered, pruning only what left the set",
		RunE:  func(cmd *cobra.Command, args []string) error { return runApply(cmd, s, f, args) },
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "apply", true)
}

func runApply(cmd *cobra.Command, s streams, f *arguments.Apply, args []string) error {
	startgc.Raise(startgc.ClusterLimit) // it holds live objects too: no collection in a small run
	if err := f.Check(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t, err := run.Connect(f.Request(args, s.env(), s.opener(cmd, &f.Input, &f.Select), render.RunWatch{Source: s.err}))
	if err != nil {
		return err
	}
	a := applyRun{cmd: cmd, s: s, f: f, t: t}
	if !f.Select.On() {
		a.gh = s.ghRun(f.View(s.env(), kubeplanVersion(), t, nil))
	}
	if f.Interval <= 0 {
		// Ctrl-C or SIGTERM stops planning (nothing is written) or the
		// health wait; writes under way always finish (apply.Execute).
		// A second signal kills the process.
		go func() { <-ctx.Done(); stop() }()
		return a.once(ctx)
	}
	// A run is never interrupted half way: SIGTERM ends the loop after it.
	run.Loop(ctx, func() time.Duration {
		var ee exitError
		if err := a.once(context.Background()); err != nil && !errors.As(err, &ee) {
			fmt.Fprintln(s.err, "kubeplan: "+err.Error())
		}
		return f.Interval
	})
	return nil
}

// applyRun is one invocation of apply: its target (run.Connect) and, for
// a plain invocation, its GitHub view.
type applyRun struct {
	cmd *cobra.Command
	s   streams
	f   *arguments.Apply
	t   *run.Target
	gh  *ghview.Run
}

// once is one run: read the source (or the saved plan), then run.Apply
// (lint, plan, ask, apply) or, with --drift=report, run.Plan. A plain
// invocation's run that fails before its project starts is recorded on
// the ApplySet parent.
func (a applyRun) once(ctx context.Context) error {
	deadline := time.Now().Add(a.f.Timeout)
	planCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if !a.f.Select.On() {
		a.cmd.SetContext(planCtx) // loading, lint and policies share the run's deadline and signal
	}
	p, err := a.t.Prepare(planCtx)
	if a.f.Select.On() && err == nil {
		a.gh = a.s.ghRun(a.f.View(a.s.env(), kubeplanVersion(), a.t, p))
	}
	if err != nil && (a.f.Report() || a.f.Select.On()) {
		return err // report mode records nothing; over projects nothing started
	}
	if a.gh != nil && p.Options.Saved != nil {
		a.gh.SavedPlan(p.Options.Saved)
	}
	w := a.s.watch(p, "applied", a.gh)
	defer w.Bar.Close()
	if a.f.Report() {
		w.Verb, p.Options.Observer = "planned", w
		return a.report(planCtx, p)
	}
	p.Options.Observer = w
	r, err := a.apply(ctx, p, deadline, w.Bar, err)
	w.Bar.Close() // the bar ends before the result is printed
	return a.show(ctx, p, r, err)
}

// apply is run.Apply, asking first (approve) unless the run is a saved
// plan, reviewed when it was made; a plain invocation's run that could
// not start (err) is recorded as failed instead (run.Target.Failed).
func (a applyRun) apply(ctx context.Context, p *run.Prepared, deadline time.Time, bar *render.ProgressView, err error) (*run.Report, error) {
	if err != nil {
		return a.t.Failed(ctx, a.f.Cluster.FieldManager, err), nil
	}
	o := run.ApplyOptions{Options: p.Options, Apply: a.f.ApplyOptions(kubeplanVersion(), arguments.LockDuration(a.s.env()), deadline)}
	if bar != nil {
		o.Apply.Reporter = bar
	}
	o.Approver = a.s.approver(a.f.View(a.s.env(), kubeplanVersion(), a.t, p).Token)
	by := whoRuns(a.s.env())
	o.Approvals, o.Apply.Override = a.f.Approvals(by), a.f.Override(by)
	o.Apply.IgnoreSuspend = a.f.IgnoreSuspendOverride(by)
	if p.Options.Saved == nil {
		o.Approve = a.s.approve(a.f, bar)
	}
	return run.Apply(ctx, p.Projects, o)
}

// report is --drift=report: run.Plan, the plans shown as text, exit 2
// when one has changes; nothing is recorded.
func (a applyRun) report(planCtx context.Context, p *run.Prepared) error {
	r, err := run.Plan(planCtx, p.Projects, p.Options)
	if r, err = a.s.single(planCtx, r, err); err != nil {
		return err
	}
	return a.s.showPlans(planCtx, "text", r, a.gh, (*ghview.Run).DriftReport, true)
}

// show shows an applied run as --output says and in its GitHub view, and
// returns its error. A plain invocation's report is shown whatever
// happened (lint's errors on stderr first); a run over projects that
// could not start or was not approved (err) only returns why.
func (a applyRun) show(ctx context.Context, p *run.Prepared, r *run.Report, err error) error {
	if !r.Single && err != nil {
		return err
	}
	_, err = a.s.single(ctx, r, nil)
	if verr := render.RunApply(a.s.out, a.f.Output, r, render.RunOptions{Color: a.s.color(a.s.out), Revision: p.Revision}); verr != nil {
		err = errors.Join(err, verr)
	}
	if a.gh != nil {
		a.gh.Revision(p.Revision)
		if gerr := a.gh.Applied(ctx, r); err == nil {
			err = gerr
		}
	}
	if err == nil {
		err = r.Err()
	}
	return err
}

// whoRuns names who runs kubeplan, for the approvals and overrides it
// records: the GitHub actor in Actions, else the login user; "" when
// neither is known.
func whoRuns(env func(string) string) string {
	if a := env("GITHUB_ACTOR"); a != "" {
		return "@" + a
	}
	return env("USER")
}
