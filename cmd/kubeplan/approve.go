package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// errNotApproved is the answer to the question before writing when it is
// not "yes".
var errNotApproved = run.ErrNotApproved

// approve is run.ApplyOptions.Approve: it shows the plans and asks before
// writing, as terraform apply does, when a person is there to answer
// (ask). The progress bar (view, when not nil) ends first.
func (f *applyFlags) approve(s streams, view *render.ProgressView) func(*run.Report) error {
	return func(r *run.Report) error {
		if view != nil {
			view.Close()
		}
		return ask(s, f, r.HasChanges(), func() error {
			return render.RunPlan(s.out, "text", r, render.RunOptions{Color: s.color(s.out)})
		})
	}
}

// ask shows what would be written (show) and asks for "yes", when a
// person is there to answer and there are changes: stdin is a terminal,
// CI is not true, and neither --auto-approve nor --interval says
// otherwise (a saved plan is never asked about).
func ask(s streams, f *applyFlags, changes bool, show func() error) error {
	if !s.terminal || f.autoApprove || f.interval > 0 || s.env()("CI") == "true" || !changes {
		return nil
	}
	if err := show(); err != nil {
		return err
	}
	render.ApplyQuestion(s.err)
	line, err := bufio.NewReader(s.in).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(s.err)
	}
	if strings.TrimSpace(line) != "yes" {
		return errNotApproved
	}
	fmt.Fprintln(s.err)
	return nil
}
