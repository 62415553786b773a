package serve

import (
	"errors"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/run"
)

// metricReasons are the failure reasons of the metrics for the runs the
// guards stopped.
var metricReasons = map[string]string{ReasonApprovalPending: "ApprovalPending", ReasonDenied: "Denied"}

// guarded notes on r what the guards did to the run: a refusal for a
// closed window is not a failure (the run waits for the window, and is
// retried every round); a refusal for pending approvals or a deny is one
// (r.Err); prunes held back for approval make the run's error a refusal
// of those verdicts, so that the Event, the metrics and the
// notification report them, once, like any failing run.
func guarded(r *RunResult, pr run.ProjectReport) {
	var ref *guard.Refusal
	if errors.As(r.Err, &ref) {
		r.Pending = len(ref.Pending)
		if ref.WindowOnly() {
			r.Err, r.WindowClosed = nil, ref.Window.Reason
		}
		return
	}
	if r.Err == nil && pr.Result != nil && len(pr.Result.Pending) > 0 {
		r.Pending = len(pr.Result.Pending)
		r.Err = &heldBack{&guard.Refusal{Pending: pr.Result.Pending}}
	}
}

// heldBack is the error of a run that applied everything but the
// prunes pending approvals hold back.
type heldBack struct{ r *guard.Refusal }

func (h *heldBack) Error() string {
	return "applied, except the prunes held back for approval (kubeplan serve never approves): " + h.r.Error()
}
func (h *heldBack) Unwrap() error { return h.r }

// guardReason is the Event reason of a run the guards stopped, "" for
// any other error.
func guardReason(err error) string {
	var ref *guard.Refusal
	switch {
	case !errors.As(err, &ref):
		return ""
	case len(ref.Denied) > 0:
		return ReasonDenied
	case len(ref.Pending) > 0:
		return ReasonApprovalPending
	}
	return ""
}
