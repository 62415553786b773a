package apply

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// Annotations of the parent that record guard decisions.
const (
	// AnnotationApprovals holds the approvals and window overrides runs
	// used, newest first, as JSON (ApprovalRecord), at most
	// maxApprovalRecords.
	AnnotationApprovals = "kubeplan.dev/approvals"
	// AnnotationPending holds the require-approval verdicts the last run
	// found no approval for, as JSON; absent when none.
	AnnotationPending = "kubeplan.dev/pending-approvals"
)

// maxApprovalRecords bounds the history of approvals kept on the parent.
const maxApprovalRecords = 20

// GuardDecision is what the guards decide about applying a plan.
type GuardDecision struct {
	// Used are the approvals and the window override the apply uses, to
	// record on the parent.
	Used []ApprovalRecord
	// Pending are the require-approval verdicts no approval covers; with
	// Options.Withhold and no refusal, the prunes they are about are
	// Withheld (the object stays, a member of the set).
	Pending []guard.Verdict
	// Withheld are the prunes held back.
	Withheld map[plan.Ref]bool
}

// CheckGuards decides whether p may be applied under opts, before
// anything is written: a deny verdict refuses it; a require-approval
// verdict no approval names refuses it, unless opts.Withhold and every
// pending verdict is about prunes (a prune's own verdict, or the
// built-in mass-prune over the plan), which are then held back; a
// closed change window refuses it unless opts.Override. The refusal is
// a *guard.Refusal naming each rule and the flag that lets it through.
func CheckGuards(p *plan.Plan, opts Options) (GuardDecision, error) {
	var d GuardDecision
	vs := slices.Clone(p.Guards)
	denied := guard.Denied(vs)
	pending := guard.Approve(vs, opts.Approvals)
	var window *guard.WindowState
	if st := opts.Windows.At(time.Now()); !st.Open && p.HasChanges() {
		if opts.Override == nil {
			window = &st
		} else {
			o := *opts.Override
			if o.At == "" {
				o.At = now()
			}
			d.Used = append(d.Used, ApprovalRecord{Approval: guard.Approval{Reason: o.Reason, Via: "flag", By: o.By, At: o.At}, Window: true, Revision: opts.Revision})
		}
	}
	d.Pending = pending
	if len(pending) > 0 && opts.Withhold && len(denied) == 0 && window == nil {
		if held, ok := withholdable(p, pending); ok {
			d.Withheld = held
			pending = nil
		}
	}
	if len(denied) > 0 || len(pending) > 0 || window != nil {
		return d, &guard.Refusal{Denied: denied, Pending: pending, Window: window}
	}
	d.Used = append(approvalsUsed(vs, opts.Revision), d.Used...)
	return d, nil
}

// heldInSync reports whether applying p under gd would write nothing but
// the record: every change that writes is a prune held back, and the
// parent records revision as ok (a run held them back already).
func heldInSync(p *plan.Plan, gd GuardDecision, revision string) bool {
	if len(gd.Withheld) == 0 || p.Parent == nil || !p.Parent.Exists || p.Parent.Result != "ok" || (revision != "" && p.Parent.Revision != revision) {
		return false
	}
	for _, c := range p.Changes {
		if c.Action != plan.Unchanged && !gd.Withheld[c.Ref] {
			return false
		}
	}
	return true
}

// withholdable returns the prunes to hold back so that no pending
// verdict is about what the apply does: each pending verdict must be
// about a prune, or be the built-in mass-prune over the whole plan
// (then every prune is held back). Anything else cannot be left out
// safely, and nothing is applied.
func withholdable(p *plan.Plan, pending []guard.Verdict) (map[plan.Ref]bool, bool) {
	held := map[plan.Ref]bool{}
	all := false
	for _, v := range pending {
		switch {
		case v.Object == "" && v.Builtin && v.Rule == guard.MassPrune:
			all = true
		case v.Action == string(plan.Prune):
		default:
			return nil, false
		}
	}
	for _, c := range p.Changes {
		if c.Action != plan.Prune {
			continue
		}
		if all {
			held[c.Ref] = true
			continue
		}
		for _, v := range pending {
			if v.Action == string(plan.Prune) && v.Object == c.Ref.String() && v.Namespace == c.Ref.Namespace {
				held[c.Ref] = true
			}
		}
	}
	return held, true
}

// approvalsUsed are the approvals of vs (set by guard.Approve), one
// record per rule and approval, with the objects it let through.
func approvalsUsed(vs []guard.Verdict, revision string) []ApprovalRecord {
	var out []ApprovalRecord
	index := map[guard.Approval]int{}
	for _, v := range vs {
		if v.Approval == nil {
			continue
		}
		a := *v.Approval
		if a.At == "" {
			a.At = now()
		}
		i, ok := index[a]
		if !ok {
			i = len(out)
			index[a] = i
			out = append(out, ApprovalRecord{Approval: a, Revision: revision})
		}
		if v.Object != "" {
			obj := v.Object
			if v.Namespace != "" {
				obj = v.Namespace + "/" + obj
			}
			out[i].Objects = append(out[i].Objects, obj)
		}
	}
	return out
}

// approvalsRecord is the parent's approvals annotation with used put
// first: the history, newest first, at most maxApprovalRecords. An
// unreadable old record is replaced.
func approvalsRecord(old string, used []ApprovalRecord) string {
	var prev []ApprovalRecord
	if old != "" {
		_ = json.Unmarshal([]byte(old), &prev)
	}
	all := append(slices.Clone(used), prev...)
	if len(all) > maxApprovalRecords {
		all = all[:maxApprovalRecords]
	}
	if len(all) == 0 {
		return ""
	}
	data, err := json.Marshal(all)
	if err != nil {
		return old
	}
	return string(data)
}

// pendingRecord is the pending-approvals annotation for vs ("" for none).
func pendingRecord(vs []guard.Verdict) string {
	if len(vs) == 0 {
		return ""
	}
	out := make([]guard.Verdict, len(vs))
	for i, v := range vs {
		out[i] = guard.Verdict{Rule: v.Rule, Outcome: v.Outcome, Message: clip(v.Message, 512), Object: v.Object, Namespace: v.Namespace, Action: v.Action, Builtin: v.Builtin, At: v.At}
	}
	if len(out) > 50 {
		out = out[:50]
	}
	data, err := json.Marshal(out)
	if err != nil {
		return ""
	}
	return string(data)
}

// pendingOf is the pending-approvals record of a refusal ("" for any
// other error).
func pendingOf(err error) string {
	var r *guard.Refusal
	if !errors.As(err, &r) {
		return ""
	}
	return pendingRecord(r.Pending)
}

// readApprovals reads the parent's guard records for status.
func readApprovals(a map[string]string, s *Status) {
	if v := a[AnnotationApprovals]; v != "" {
		_ = json.Unmarshal([]byte(v), &s.Approvals)
	}
	if v := a[AnnotationPending]; v != "" {
		_ = json.Unmarshal([]byte(v), &s.Pending)
	}
}
