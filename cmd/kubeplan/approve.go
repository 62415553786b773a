package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

// errNotApproved is the answer to the question before writing when it is
// not "yes".
var errNotApproved = errors.New("apply cancelled: nothing was written")

// approve shows the plan and asks before writing, as terraform apply does,
// when a person is there to answer: stdin is a terminal, CI is not true,
// and neither --auto-approve nor --interval says otherwise (the caller
// skips it for a saved plan). A plan without changes is not asked about.
func (r *applyRun) approve(pl *plan.Plan) error {
	if !r.s.terminal || r.f.autoApprove || r.f.interval > 0 || r.s.env()("CI") == "true" || !pl.HasChanges() {
		return nil
	}
	if err := render.Plan(r.s.out, "text", pl, render.PlanOptions{Color: r.s.color(r.s.out)}); err != nil {
		return err
	}
	render.ApplyQuestion(r.s.err)
	line, err := bufio.NewReader(r.s.in).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(r.s.err)
	}
	if strings.TrimSpace(line) != "yes" {
		return errNotApproved
	}
	fmt.Fprintln(r.s.err)
	return nil
}
