package render

import (
	"errors"
	"fmt"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/run"
)

// The verdicts of the rules over the plans of a run, as the run views
// count them: each project's verdicts are in its own section (its plan's
// view), and the run's summary line counts the projects they stop.

// GuardTally counts what the rules over a run's plans found, for the
// step outputs of GitHub Actions (needs-approval, denied) and the
// summary lines.
type GuardTally struct {
	// Denied and Pending count the projects a rule denies, and those
	// with a verdict waiting for an approval (a project may be both).
	Denied, Pending int
	// Closed counts the projects whose change windows are closed.
	Closed int
	// Refused counts the projects whose apply the rules or windows
	// refused (their error is a *guard.Refusal).
	Refused int
}

// RunGuards tallies the verdicts of r's plans and the refusals of its
// applies.
func RunGuards(r *run.Report) GuardTally {
	var t GuardTally
	for _, p := range r.Projects {
		var ref *guard.Refusal
		if p.Err != nil && errors.As(p.Err, &ref) {
			t.Refused++
		}
		if p.Plan == nil {
			continue
		}
		g := groupGuards(p.Plan.Guards)
		if len(g[guardDenied]) > 0 {
			t.Denied++
		}
		if len(g[guardPending]) > 0 {
			t.Pending++
		}
		if p.Plan.Window != nil {
			t.Closed++
		}
	}
	return t
}

// NeedsApproval reports whether a plan of the run waits for an approval.
func (t GuardTally) NeedsApproval() bool { return t.Pending > 0 }

// planPart is what the plan run's summary says of the guards: ", 1
// denied by guards, 2 awaiting approval, 1 outside its change window",
// each part only when not zero.
func (t GuardTally) planPart() string {
	s := ""
	if t.Denied > 0 {
		s += fmt.Sprintf(", %d denied by guards", t.Denied)
	}
	if t.Pending > 0 {
		s += fmt.Sprintf(", %d awaiting approval", t.Pending)
	}
	if t.Closed > 0 {
		s += fmt.Sprintf(", %d outside %s change window", t.Closed, map[bool]string{true: "its", false: "their"}[t.Closed == 1])
	}
	return s
}

// applyPart is what the apply run's summary says of the projects the
// guards refused (they are counted among the failed too): ", 1 refused
// by guards".
func (t GuardTally) applyPart() string {
	if t.Refused == 0 {
		return ""
	}
	return fmt.Sprintf(", %d refused by guards", t.Refused)
}

// runMdGuards is what a project's status cell in the run markdown adds
// when its plan is stopped by guards: ", ⛔ denied", ", ✋ needs
// approval", ", 🕒 window closed".
func runMdGuards(p run.ProjectReport) string {
	if p.Plan == nil {
		return ""
	}
	s := ""
	g := groupGuards(p.Plan.Guards)
	if len(g[guardDenied]) > 0 {
		s += ", ⛔ denied"
	}
	if len(g[guardPending]) > 0 {
		s += ", ✋ needs approval"
	}
	if p.Plan.Window != nil {
		s += ", 🕒 window closed"
	}
	return s
}
