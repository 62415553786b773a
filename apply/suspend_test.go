package apply

import (
	"errors"
	"testing"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// TestCheckSuspended: a plan whose parent is suspended is refused, the
// message naming who, why, since when and the two ways on; with
// IgnoreSuspend it passes and gives the record to keep; a plan of a set
// that is not suspended passes with no record.
func TestCheckSuspended(t *testing.T) {
	p := &plan.Plan{Parent: &plan.Parent{Ref: plan.Ref{Kind: "ConfigMap", Namespace: "shop", Name: "web"}, Exists: true,
		Suspended: &plan.Suspension{By: "alice", Reason: "incident 123", At: "2026-12-02T10:00:41Z"}}}
	_, err := CheckSuspended(p, Options{})
	var se *SuspendedError
	if !errors.As(err, &se) {
		t.Fatalf("a suspended set's plan: %v", err)
	}
	if want := `the ApplySet configmap/web in namespace shop is suspended by alice: "incident 123" since 2026-12-02T10:00Z; kubeplan resume -n shop --applyset configmap/web, or --ignore-suspend REASON`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	se.Project = "web"
	if want := `project web is suspended by alice: "incident 123" since 2026-12-02T10:00Z; kubeplan resume web, or --ignore-suspend REASON`; se.Error() != want {
		t.Errorf("got  %s\nwant %s", se, want)
	}
	rec, err := CheckSuspended(p, Options{IgnoreSuspend: &guard.Override{Reason: "hotfix", By: "ops"}, Revision: "abc"})
	if err != nil || len(rec) != 1 || rec[0].Suspend != SuspendIgnored || rec[0].Reason != "hotfix" || rec[0].By != "ops" || rec[0].At == "" || rec[0].Revision != "abc" {
		t.Errorf("--ignore-suspend: %v %+v", err, rec)
	}
	p.Parent.Suspended = nil
	if rec, err := CheckSuspended(p, Options{IgnoreSuspend: &guard.Override{Reason: "hotfix"}}); err != nil || rec != nil {
		t.Errorf("a set that is not suspended: %v %+v", err, rec)
	}
}

// TestReconcileRefusesSuspended: Reconcile refuses a suspended set's plan
// before anything, even one in sync (whose checked-at time it would
// otherwise record): it makes no request at all (its client is nil).
func TestReconcileRefusesSuspended(t *testing.T) {
	p := &plan.Plan{Parent: &plan.Parent{Ref: plan.Ref{Kind: "ConfigMap", Namespace: "shop", Name: "web"}, Exists: true, Result: "ok",
		Suspended: &plan.Suspension{Reason: "incident 123"}},
		Changes: []plan.Change{{Action: plan.Unchanged}}}
	if _, err := Reconcile(t.Context(), nil, p, Options{}); !errors.As(err, new(*SuspendedError)) {
		t.Fatalf("in sync and suspended: %v", err)
	}
}

// TestSameOrLater compares request times as times, whatever their
// fractions of a second.
func TestSameOrLater(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"2026-12-02T10:00:00.5Z", "2026-12-02T10:00:00.123Z", true},
		{"2026-12-02T10:00:00Z", "2026-12-02T10:00:00.1Z", false},
		{"2026-12-02T10:00:00.100000000Z", "2026-12-02T10:00:00.1Z", true},
		{"2026-12-02T11:00:00+01:00", "2026-12-02T10:00:00.1Z", false},
	} {
		if got := SameOrLater(c.a, c.b); got != c.want {
			t.Errorf("SameOrLater(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
