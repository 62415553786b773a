package guard

import (
	"fmt"
	"strings"
	"time"
)

// Refusal is the error of an apply the guards stop: the deny verdicts,
// the pending require-approval verdicts, and a closed window. Its text
// names each rule, the object and, for a pending approval, the exact flag
// that approves it (--approve RULE=REASON); for a closed window, when it
// opens and the flag that overrides it (--outside-window REASON).
type Refusal struct {
	Denied  []Verdict
	Pending []Verdict
	Window  *WindowState
}

// Error is the refusal as people read it, one line each, for example:
//
//	refused by guard rules:
//	  denied by no-critical-prune: prunes configmap/ledger, labelled data-class: critical (configmap/ledger in namespace shop)
//	  needs approval of protect-pvc: prunes persistentvolumeclaim/data in namespace shop: the volume's data may be deleted with it; approve with --approve protect-pvc=REASON
//	  outside the change windows: no allow window is active; opens at 2026-12-07T09:00:00+01:00; override with --outside-window REASON
//
// Views and tests depend on it: keep it stable.
func (r *Refusal) Error() string {
	var b strings.Builder
	b.WriteString("refused by guard rules:")
	for _, v := range r.Denied {
		fmt.Fprintf(&b, "\n  denied by %s: %s%s", v.Rule, v.Message, about(v))
	}
	for _, v := range r.Pending {
		fmt.Fprintf(&b, "\n  needs approval of %s: %s%s; approve with --approve %s=REASON", v.Rule, v.Message, about(v), v.Rule)
	}
	if w := r.Window; w != nil && !w.Open {
		b.WriteString("\n  outside the change windows")
		if w.Reason != "" {
			b.WriteString(": " + w.Reason)
		}
		if !w.Next.IsZero() {
			b.WriteString("; opens at " + w.Next.Format(time.RFC3339))
		}
		b.WriteString("; override with --outside-window REASON")
	}
	return b.String()
}

// about names the object of a change verdict, " (persistentvolumeclaim/data
// in namespace shop)", unless its message does already; it is empty for a
// plan's.
func about(v Verdict) string {
	if v.Object == "" || strings.Contains(v.Message, v.Object) {
		return ""
	}
	if v.Namespace != "" {
		return fmt.Sprintf(" (%s in namespace %s)", v.Object, v.Namespace)
	}
	return " (" + v.Object + ")"
}

// WindowOnly reports a refusal for closed change windows alone: nothing
// is denied or waits for approval, the apply only waits for a window.
func (r *Refusal) WindowOnly() bool {
	return len(r.Denied) == 0 && len(r.Pending) == 0 && r.Window != nil
}
