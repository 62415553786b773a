package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

var incident = &plan.Suspension{By: "alice", Reason: "incident 123", At: "2026-12-02T10:00:00Z"}

// TestSuspendedPlan: the text plan, the markdown (the pull-request
// comment) and the JSON of a suspended set's plan say so; a set that is
// not suspended says nothing of it.
func TestSuspendedPlan(t *testing.T) {
	p := &plan.Plan{Namespace: "shop", Parent: &plan.Parent{Ref: plan.Ref{Kind: "ConfigMap", Name: "web"}, Exists: true, Suspended: incident},
		Changes: []plan.Change{{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, Action: plan.Update}}}
	want := map[string]string{
		"text":     `Suspended by alice: "incident 123" since 2026-12-02T10:00Z; apply refuses it (kubeplan resume, or --ignore-suspend REASON)`,
		"markdown": "**Suspended** by alice: \"incident 123\" since 2026-12-02T10:00Z: apply refuses this plan (`kubeplan resume`, or `--ignore-suspend REASON`).",
		"json":     `"suspended": {`,
	}
	for format, line := range want {
		var b bytes.Buffer
		if err := Plan(&b, format, p, PlanOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), line) {
			t.Errorf("%s lacks %q:\n%s", format, line, b.String())
		}
	}
	p.Parent.Suspended = nil
	for format := range want {
		var b bytes.Buffer
		if err := Plan(&b, format, p, PlanOptions{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(b.String()), "suspended") {
			t.Errorf("%s of a set that is not suspended mentions it:\n%s", format, b.String())
		}
	}
}

// TestSuspendedStatus: status says who suspended the set, why and since
// when, and lists the suspension's history with the approvals.
func TestSuspendedStatus(t *testing.T) {
	st := &apply.Status{ApplySet: "configmap/web", Namespace: "shop", Suspended: incident, Approvals: []apply.ApprovalRecord{
		{Approval: guard.Approval{Reason: "hotfix", Via: "flag", By: "ops", At: "2026-12-02T10:30:00Z"}, Suspend: apply.SuspendIgnored, Revision: "abcdef1234abcdef1234abcdef1234abcdef1234"},
		{Approval: guard.Approval{Reason: "incident 123", By: "alice", At: "2026-12-02T10:00:00Z"}, Suspend: apply.SuspendSuspended},
	}}
	var b bytes.Buffer
	if err := Status(&b, "text", st); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`Suspended:  by alice: "incident 123" since 2026-12-02T10:00Z`,
		"Applied while suspended: hotfix — by ops via --ignore-suspend, revision abcdef1, 2026-12-02T10:30:00Z",
		"Suspended: incident 123 — by alice, 2026-12-02T10:00:00Z",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("status lacks %q:\n%s", line, b.String())
		}
	}
}

// TestSuspends: what suspend, resume and sync --via-serve print, a line
// per set; a single set's error is left to the command.
func TestSuspends(t *testing.T) {
	var b bytes.Buffer
	rs := []run.SuspendReport{
		{Project: "web", Now: incident},
		{Project: "api", Now: incident, Before: &plan.Suspension{By: "bob", Reason: "freeze"}},
		{ApplySet: "configmap/db", Namespace: "shop", Err: errors.New("boom"), Error: "boom"},
	}
	if err := Suspends(&b, "text", "suspended", rs); err != nil {
		t.Fatal(err)
	}
	want := `project web suspended by alice: "incident 123" since 2026-12-02T10:00Z
project api suspended by alice: "incident 123" since 2026-12-02T10:00Z (was suspended by bob: "freeze")
configmap/db in namespace shop: boom
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	_ = Suspends(&b, "text", "resumed", []run.SuspendReport{{Project: "web", Before: incident}, {Project: "api"}})
	if want := "project web resumed (was suspended by alice: \"incident 123\" since 2026-12-02T10:00Z)\nproject api was not suspended: nothing to resume\n"; b.String() != want {
		t.Errorf("resume: got\n%s", b.String())
	}
	b.Reset()
	_ = Suspends(&b, "text", "suspended", rs[2:])
	if b.String() != "" {
		t.Errorf("a single set's error is the command's: %q", b.String())
	}
}
