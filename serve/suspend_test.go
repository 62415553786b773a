package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// TestSuspendedRun: a run refused because its project is suspended has
// the outcome "suspended", no error, no Event and no notification; the
// metrics set kubeplan_suspended alone (neither a success nor a failure
// is counted), and back to 0 once a run is not suspended.
func TestSuspendedRun(t *testing.T) {
	se := &apply.SuspendedError{Project: "web", Suspension: plan.Suspension{By: "alice", Reason: "incident 123"}}
	pr := run.ProjectReport{Project: project.Project{Name: "web"}, Status: run.Failed, Err: se, Error: se.Error()}
	r := resultOf(pr, "abc", "subject", true, ok.Start, ok.End)
	if r.Err != nil || r.Outcome() != "suspended" || r.Suspended != `by alice: "incident 123"` {
		t.Fatalf("the suspended run: %+v", r)
	}
	if _, _, event := reasonOf(r); event {
		t.Error("a suspended run records an Event")
	}
	o := &observed{}
	Notify(o, nil)(context.Background(), r)
	if len(o.runs) != 0 {
		t.Errorf("a suspended run was notified: %+v", o.runs)
	}
	m := newMetrics(newClusters(nil))
	m.observe(r)
	want := `
# HELP kubeplan_suspended 1 while the project is suspended (kubeplan suspend): serve skips it and writes nothing; else 0.
# TYPE kubeplan_suspended gauge
kubeplan_suspended{project="web"} 1
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "kubeplan_suspended"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(m.runs); n != 0 {
		t.Errorf("a suspended run counted as %d runs", n)
	}
	m.observe(RunResult{Project: "web", Start: ok.Start, End: ok.End})
	if v := testutil.ToFloat64(m.suspended.WithLabelValues("web")); v != 0 {
		t.Errorf("kubeplan_suspended after a run that is not suspended: %v", v)
	}
}
