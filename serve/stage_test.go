package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kubeplan/kubeplan/apply"
)

// staged is a failed ordered run's result: it stopped at stage with err.
func staged(stage string, err, onFail error) RunResult {
	r := bad
	r.Findings = nil
	r.Err = fmt.Errorf("applying: %w", &apply.StageError{Stage: stage, Err: err, OnFail: onFail})
	return r
}

// The Event of a failed ordered run names the stage it stopped at, before
// the failed workloads or the error; its reason is as before.
func TestEventOfAFailedStage(t *testing.T) {
	r := staged("wave 1", waitFailed("CrashLoopBackOff", false), nil)
	if reason, typ, ok := reasonOf(r); reason != ReasonHealthCheckFailed || typ != "Warning" || !ok {
		t.Errorf("event %s %s %v", reason, typ, ok)
	}
	if got, want := note(r), "revision fedcba9: stopped at stage wave 1: deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods)"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	r = staged("wave 1", waitFailed("CrashLoopBackOff", false), errors.New("job.batch/page: BackoffLimitExceeded"))
	if got, want := note(r), "revision fedcba9: stopped at stage wave 1 (the SyncFail hooks failed too): deployment.apps/web: CrashLoopBackOff"; !strings.HasPrefix(got, want) {
		t.Errorf("note %q, want it to start %q", got, want)
	}
	r = staged("PreSync hooks", errors.New("job.batch/migrate: forbidden"), errors.New("job.batch/page: BackoffLimitExceeded"))
	if reason, _, _ := reasonOf(r); reason != ReasonFailed {
		t.Errorf("a stage that failed outside a wait has Event %s", reason)
	}
	if got, want := note(r), "revision fedcba9: stopped at stage PreSync hooks: applying: job.batch/migrate: forbidden; the SyncFail hooks failed too: job.batch/page: BackoffLimitExceeded"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
}

// serve hands the notifier the stage a failed ordered run stopped at, on
// the run and on each failed workload, and an error that leads with it;
// a run without stages has none.
func TestNotifyCarriesTheStage(t *testing.T) {
	var o observed
	on := Notify(&o, nil)
	on(context.Background(), staged("wave 1", waitFailed("CrashLoopBackOff", false), nil))
	on(context.Background(), staged("PreSync hooks", errors.New("job.batch/migrate: forbidden"), nil))
	r := bad
	r.Err = waitFailed("CrashLoopBackOff", false)
	on(context.Background(), r)
	if len(o.runs) != 3 {
		t.Fatalf("%d runs", len(o.runs))
	}
	run := o.runs[0]
	if run.Stage != "wave 1" || len(run.Failures) != 1 || run.Failures[0].Stage != "wave 1" || run.Failures[0].Reason != "CrashLoopBackOff" {
		t.Errorf("run %+v", run)
	}
	if !strings.HasPrefix(run.Err.Error(), "stage wave 1: applying: applying: ") || apply.FailedStage(run.Err) != "wave 1" {
		t.Errorf("error %q", run.Err)
	}
	if run = o.runs[1]; run.Stage != "PreSync hooks" || run.Failures != nil || run.Err.Error() != "stage PreSync hooks: applying: job.batch/migrate: forbidden" {
		t.Errorf("run %+v, error %q", run, run.Err)
	}
	if run = o.runs[2]; run.Stage != "" || len(run.Failures) != 1 || run.Failures[0].Stage != "" || run.Err != r.Err {
		t.Errorf("a run without stages: %+v", run)
	}
}

// The metrics keep their bounded reason label for a failed stage and never
// name the stage: its name is not a label value.
func TestMetricsOfAFailedStage(t *testing.T) {
	if got := failureReason(staged("wave 1", waitFailed("CrashLoopBackOff", false), nil).Err); got != "CrashLoopBackOff" {
		t.Errorf("a failed stage's wait has reason %q", got)
	}
	if got := failureReason(staged("wave 1", errors.New("forbidden"), nil).Err); got != "error" {
		t.Errorf("a failed stage's apply has reason %q", got)
	}
	m := newMetrics(newClusters(nil))
	m.observe(staged("wave 1", waitFailed("CrashLoopBackOff", false), nil))
	m.observe(staged("wave 2", errors.New("forbidden"), nil))
	n, err := testutil.GatherAndCount(m.reg)
	if err != nil || n == 0 {
		t.Fatalf("%d series, %v", n, err)
	}
	mfs, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if s := mf.String(); strings.Contains(s, "wave") {
			t.Errorf("metric %s names the stage: %s", mf.GetName(), s)
		}
	}
}
