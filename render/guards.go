package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/guard"
)

// The words every view uses for the verdicts of the rules over a plan
// (plan.Plan.Guards), the approvals that let them through and the change
// windows (internal/guard). Verdict messages are built by rules, never
// from Secret data, but they are the repository's text: every view
// escapes them as it escapes cluster text.

// maxGuardLines is how many verdicts of one kind the text views list one
// per line; the rest are counted, as lint counts findings over its cap.
const maxGuardLines = 20

// guardKind is how a verdict stands: denied, needing approval, approved
// or a warning, in the order the views list them.
type guardKind int

const (
	guardDenied guardKind = iota
	guardPending
	guardApproved
	guardWarned
	guardKinds
)

// kindOf is where v stands. A require-approval verdict with its Approval
// is approved; an outcome the views do not know is a warning, shown
// rather than lost.
func kindOf(v guard.Verdict) guardKind {
	switch v.Outcome {
	case guard.Deny:
		return guardDenied
	case guard.RequireApproval:
		if v.Approval != nil {
			return guardApproved
		}
		return guardPending
	}
	return guardWarned
}

// guardGroups are the verdicts by kind, each in the plan's order.
type guardGroups [guardKinds][]guard.Verdict

func groupGuards(vs []guard.Verdict) guardGroups {
	var g guardGroups
	for _, v := range vs {
		k := kindOf(v)
		g[k] = append(g[k], v)
	}
	return g
}

// count is "1 denied, 2 need approval, 1 approved, 1 warning", the kinds
// that are not empty; "" when there are none.
func (g guardGroups) count() string {
	var parts []string
	for k := range guardKinds {
		if n := len(g[k]); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, guardCountWord(k, n)))
		}
	}
	return strings.Join(parts, ", ")
}

// blocks reports whether apply refuses the plan as it stands: a verdict
// is denied or waits for an approval.
func (g guardGroups) blocks() bool { return len(g[guardDenied])+len(g[guardPending]) > 0 }

func guardCountWord(k guardKind, n int) string {
	switch k {
	case guardDenied:
		return "denied"
	case guardPending:
		if n == 1 {
			return "needs approval"
		}
		return "need approval"
	case guardApproved:
		return "approved"
	}
	return pluralWord(n, "warning")
}

// guardWord is a verdict's outcome in a line of the text views.
func guardWord(k guardKind) string {
	switch k {
	case guardDenied:
		return "denied"
	case guardPending:
		return "needs approval"
	case guardApproved:
		return "approved"
	}
	return "warning"
}

// guardSymbol marks a kind in the text views as actionSymbol marks an
// action: ✗ refuses, ! waits for someone, ✓ let through, ~ only says.
func guardSymbol(k guardKind) string {
	switch k {
	case guardDenied:
		return "✗"
	case guardPending:
		return "!"
	case guardApproved:
		return "✓"
	}
	return "~"
}

// guardMore counts what a capped list left out: "3 more needing
// approval".
func guardMore(k guardKind, n int) string {
	switch k {
	case guardDenied:
		return fmt.Sprintf("%d more denied", n)
	case guardPending:
		return fmt.Sprintf("%d more needing approval", n)
	case guardApproved:
		return fmt.Sprintf("%d more approved", n)
	}
	return fmt.Sprintf("%d more %s", n, pluralWord(n, "warning"))
}

// actionVerbs are the verbs of a verdict's action: "prunes
// persistentvolumeclaim/data".
var actionVerbs = map[string]string{
	"create": "creates", "update": "updates", "replace": "replaces", "prune": "prunes",
	"adopt": "adopts", "release": "releases",
}

// verdictObject is what a verdict is about, plain text: "prunes
// persistentvolumeclaim/data in shop", "service/web in shop", or "the
// plan" for a rule over the whole plan.
func verdictObject(v guard.Verdict) string {
	if v.Object == "" {
		return "the plan"
	}
	s := v.Object
	if verb, ok := actionVerbs[v.Action]; ok {
		s = verb + " " + s
	} else if v.Action != "" {
		s = v.Action + " " + s
	}
	if v.Namespace != "" {
		s += " in " + v.Namespace
	}
	return s
}

// approveFlag is the flag that approves a verdict's rule.
func approveFlag(rule string) string { return "--approve " + rule + "=REASON" }

// overrideFlag is the flag that applies outside the change windows.
const overrideFlag = "--outside-window REASON"

// approvalBy says who approved and how, plain text: "by @alice via
// review on PR #12", "by ops via --approve", "via label on PR #12".
func approvalBy(a guard.Approval) string {
	var parts []string
	if a.By != "" {
		parts = append(parts, "by "+a.By)
	}
	via := a.Via
	if via == "flag" {
		via = "--approve"
	}
	if via != "" {
		if a.PullRequest > 0 {
			via += fmt.Sprintf(" on PR #%d", a.PullRequest)
		}
		parts = append(parts, "via "+via)
	} else if a.PullRequest > 0 {
		parts = append(parts, fmt.Sprintf("on PR #%d", a.PullRequest))
	}
	return strings.Join(parts, " ")
}

// approvalText is who approved, how and why, plain text: "by @alice via
// review on PR #12: volume moved".
func approvalText(a guard.Approval) string {
	by := approvalBy(a)
	switch {
	case a.Reason == "":
		return by
	case by == "":
		return a.Reason
	}
	return by + ": " + a.Reason
}

// windowText is the line of a closed change window, plain text:
//
//	Change window closed: no allow window is active; opens at 2026-12-07T08:00:00+01:00 (override: --outside-window REASON)
func windowText(w *guard.WindowState) string {
	s := "Change window closed"
	if w.Reason != "" {
		s += ": " + w.Reason
	}
	return s + "; " + windowOpens(w.Next) + " (override: " + overrideFlag + ")"
}

// windowOpens is "opens at TIME" in the zone Next carries, or that it
// does not open within a year.
func windowOpens(next time.Time) string {
	if next.IsZero() {
		return "it does not open within a year"
	}
	return "opens at " + next.Format(time.RFC3339)
}
