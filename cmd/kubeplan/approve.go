package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/run"
)

// errNotApproved is the answer to the question before writing when it is
// not "yes".
var errNotApproved = run.ErrNotApproved

// approve shows the plan and asks before writing, as terraform apply does,
// when a person is there to answer: stdin is a terminal, CI is not true,
// and neither --auto-approve nor --interval says otherwise (the caller
// skips it for a saved plan). A plan without changes is not asked about.
func (r *applyRun) approve(pl *plan.Plan) error {
	return ask(r.s, r.f, pl.HasChanges(), func() error {
		return render.Plan(r.s.out, "text", pl, render.PlanOptions{Color: r.s.color(r.s.out)})
	})
}

// ask shows what would be written (show) and asks for "yes", when a
// person is there to answer and there are changes.
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
