package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// The approvals and change-window overrides an apply used, and the
// verdicts still waiting for one, as the apply and status views show
// them (apply.Result.Approvals, apply.Result.Pending, apply.Status).

// maxApprovalLines is how many recorded approvals status lists, newest
// first; the parent keeps more.
const maxApprovalLines = 10

// maxApprovalObjects is how many objects an approval's line names.
const maxApprovalObjects = 5

// approvalLine is one recorded approval or override, plain text and
// escaped:
//
//	Approved protect-pvc: volume moved to backup — by @alice via review on PR #12 (persistentvolumeclaim/data)
//	Applied outside the change windows: hotfix — by ops via --outside-window
//
// With when, the revision applied and when the approval was given follow
// who gave it ("..., revision abc1234, 2026-12-02T10:00:00Z"), as status
// shows them.
func approvalLine(r apply.ApprovalRecord, when bool) string {
	if r.Suspend != "" {
		return suspendRecordLine(r, when)
	}
	a := r.Approval
	s := "Approved " + a.Rule
	if r.Window {
		s = "Applied outside the change windows"
		if a.Via == "flag" {
			a.Via = "--outside-window"
		}
	}
	if a.Reason != "" {
		s += ": " + a.Reason
	}
	var who []string
	if by := approvalBy(a); by != "" {
		who = append(who, by)
	}
	if when {
		if r.Revision != "" {
			who = append(who, "revision "+shortSHA(r.Revision))
		}
		if a.At != "" {
			who = append(who, a.At)
		}
	}
	if len(who) > 0 {
		s += " — " + strings.Join(who, ", ")
	}
	if len(r.Objects) > 0 {
		objs := r.Objects
		more := ""
		if len(objs) > maxApprovalObjects {
			objs, more = objs[:maxApprovalObjects], fmt.Sprintf(" and %d more", len(r.Objects)-maxApprovalObjects)
		}
		s += " (" + strings.Join(objs, ", ") + more + ")"
	}
	return printable(s)
}

// pendingLine is a verdict still waiting for an approval, plain text and
// escaped (a message's further lines indented by 4):
//
//	Pending approval protect-pvc: prunes persistentvolumeclaim/data in shop: pruning a PVC deletes its volume (approve: --approve protect-pvc=REASON)
func pendingLine(v guard.Verdict) string {
	return "Pending approval " + verdictText(v, guardPending, "\n    ")
}

// approvalsText writes approvalLines, each line after indent.
func approvalsText(b *strings.Builder, indent string, as []apply.ApprovalRecord, pending []guard.Verdict, when bool) {
	approved, waiting := approvalLines(as, pending, when)
	for _, l := range append(approved, waiting...) {
		b.WriteString(indent + l + "\n")
	}
}

// approvalLines are the lines of the approvals (at most
// maxApprovalLines, then a count of the rest) and of the pending
// verdicts (at most maxGuardLines, then a count), plain text and escaped.
func approvalLines(as []apply.ApprovalRecord, pending []guard.Verdict, when bool) (approved, waiting []string) {
	shown := as
	if len(shown) > maxApprovalLines {
		shown = shown[:maxApprovalLines]
	}
	for _, a := range shown {
		approved = append(approved, approvalLine(a, when))
	}
	if n := len(as) - len(shown); n > 0 {
		approved = append(approved, fmt.Sprintf("... and %d older %s not shown (-o json lists all)", n, pluralWord(n, "approval")))
	}
	ps := pending
	if len(ps) > maxGuardLines {
		ps = ps[:maxGuardLines]
	}
	for _, v := range ps {
		waiting = append(waiting, pendingLine(v))
	}
	if n := len(pending) - len(ps); n > 0 {
		waiting = append(waiting, "... and "+guardMore(guardPending, n)+" not shown (-o json lists all)")
	}
	return approved, waiting
}

// withheldFor is the verdict waiting for an approval that holds back
// the prune of ref (apply.Withheld), if any.
func withheldFor(pending []guard.Verdict, ref plan.Ref) (guard.Verdict, bool) {
	for _, v := range pending {
		if v.Object == ref.String() && v.Namespace == ref.Namespace {
			return v, true
		}
	}
	return guard.Verdict{}, false
}
