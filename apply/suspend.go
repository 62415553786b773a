package apply

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// The history records (ApprovalRecord.Suspend) of suspensions.
const (
	SuspendSuspended = "suspended" // kubeplan suspend
	SuspendResumed   = "resumed"   // kubeplan resume
	SuspendIgnored   = "ignored"   // apply --ignore-suspend
)

// SuspendedError refuses an apply of a suspended set: nothing was
// written. Project names the project when the run knows it (run sets it),
// else Set and Namespace name the ApplySet.
type SuspendedError struct {
	Project, Set, Namespace string
	Suspension              plan.Suspension
}

func (e *SuspendedError) Error() string {
	what, resume := "the ApplySet "+e.Set+" in namespace "+e.Namespace, "kubeplan resume -n "+e.Namespace+" --applyset "+e.Set
	if e.Project != "" {
		what, resume = "project "+e.Project, "kubeplan resume "+e.Project
	}
	s := what + " is suspended"
	if e.Suspension.By != "" {
		s += " by " + e.Suspension.By
	}
	if e.Suspension.Reason != "" {
		s += fmt.Sprintf(": %q", e.Suspension.Reason)
	}
	if e.Suspension.At != "" {
		s += " since " + e.Suspension.Since()
	}
	return s + "; " + resume + ", or --ignore-suspend REASON"
}

// CheckSuspended refuses to apply p when its parent, as the plan read it,
// is suspended (a *SuspendedError), unless opts.IgnoreSuspend: then it
// returns the record of that override, for the parent's history. It makes
// no request: the plan read the parent.
func CheckSuspended(p *plan.Plan, opts Options) ([]ApprovalRecord, error) {
	if p.Parent == nil || p.Parent.Suspended == nil {
		return nil, nil
	}
	if o := opts.IgnoreSuspend; o != nil && strings.TrimSpace(o.Reason) != "" {
		at := o.At
		if at == "" {
			at = now()
		}
		return []ApprovalRecord{{Approval: guard.Approval{Reason: o.Reason, Via: "flag", By: o.By, At: at}, Suspend: SuspendIgnored, Revision: opts.Revision}}, nil
	}
	ref := p.Parent.Ref
	return nil, &SuspendedError{Set: strings.ToLower(ref.Kind) + "/" + ref.Name, Namespace: ref.Namespace, Suspension: *p.Parent.Suspended}
}
