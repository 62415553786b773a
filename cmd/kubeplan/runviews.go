package main

import (
	"context"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
)

// ghRun is the GitHub view o says, nil outside GitHub Actions.
func (s streams) ghRun(o ghview.RunOptions) *ghview.Run {
	if !s.githubMode() {
		return nil
	}
	return ghview.NewRun(s.env(), s.err, o)
}

// watch is how the command line watches p's run: a plain invocation's
// progress bar (the caller closes it), else in a terminal a line on
// stderr as each project is done (verb); in GitHub mode gh masks the
// objects' Secret values. It also names a --source's commit.
func (s streams) watch(p *run.Prepared, verb string, gh *ghview.Run) render.RunWatch {
	w := render.RunWatch{Verb: verb}
	if p.Options.Single {
		w.Bar = s.progress()
	} else if s.errTerminal {
		w.Lines = s.err
	}
	if gh != nil {
		w.Masks = gh.Loaded
	}
	return w
}

// single is a plain invocation's report (run.Single), lint's errors shown
// on stderr first; a run over projects is r and err as they are.
func (s streams) single(ctx context.Context, r *run.Report, err error) (*run.Report, error) {
	if err != nil || !r.Single {
		return r, err
	}
	r, err = run.Single(ctx, r, nil)
	render.LintFailure(s.err, err, s.color(s.err))
	return r, err
}

// approve is run.ApplyOptions.Approve: when a person is there to answer
// (arguments.Apply.Asks) and there are changes, the plans are shown and
// the question asked (render.Approve). The progress bar ends first.
func (s streams) approve(f *arguments.Apply, bar *render.ProgressView) func(*run.Report) error {
	return func(r *run.Report) error {
		bar.Close()
		if !f.Asks(s.terminal, s.env()("CI")) || !r.HasChanges() {
			return nil
		}
		if err := render.RunPlan(s.out, "text", r, render.RunOptions{Color: s.color(s.out)}); err != nil {
			return err
		}
		return render.Approve(s.in, s.err)
	}
}
