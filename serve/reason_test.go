package serve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	kphealth "github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// waitFailed is a run's error when its health wait found a Deployment
// whose pods show reason (timeout: the wait timed out).
func waitFailed(reason string, timeout bool) error {
	d := &kphealth.Diagnosis{Source: "app/web.yaml:1:1"}
	if reason != "" {
		d.Causes = []kphealth.Cause{{Signal: kphealth.Signal{Pod: "web-1", Container: "main", Reason: reason, ExitCode: 1}, Pods: 2}}
	}
	return fmt.Errorf("applying: %w", &kphealth.UnhealthyError{Timeout: timeout, Results: []kphealth.Result{{
		Ref: kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "shop", Name: "web"}, Status: "Failed", Diagnosis: d}}})
}

// The reason label takes its values from a fixed set, whatever the
// cluster's reasons say.
func TestFailureReasonIsBounded(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("lint found 1 error(s)"), "error"},
		{waitFailed("CrashLoopBackOff", false), "CrashLoopBackOff"},
		{waitFailed("ErrImagePull", false), "ImagePullBackOff"},
		{waitFailed("OOMKilled", false), "OOMKilled"},
		{waitFailed("FailedScheduling", false), "FailedScheduling"},
		{waitFailed("CreateContainerConfigError", false), "CreateContainerConfigError"},
		{waitFailed("BackoffLimitExceeded", false), "BackoffLimitExceeded"},
		{waitFailed("ProgressDeadlineExceeded", false), "ProgressDeadlineExceeded"},
		{waitFailed("", true), "Timeout"},
		{waitFailed("", false), "other"},
		{waitFailed(`evil"} 1`+"\nkubeplan_x{a=\"b", false), "other"},
		{waitFailed(strings.Repeat("Z", 500), true), "Timeout"},
	} {
		got := failureReason(c.err)
		if got != c.want {
			t.Errorf("%v: reason %q, want %q", c.err, got, c.want)
		}
		if got != "" && !slices.Contains(MetricReasons(), got) {
			t.Errorf("%q is not one of MetricReasons %v", got, MetricReasons())
		}
	}
}

// A failed run counts under its reason; the last failure's reason is a
// series of its own while it lasts.
func TestMetricsFailureReason(t *testing.T) {
	m := newMetrics(newClusters(nil))
	crash := bad
	crash.Err = waitFailed("CrashLoopBackOff", false)
	m.observe(crash)
	m.observe(crash)
	m.observe(bad)
	want := `
# HELP kubeplan_run_failures_total Failed runs of the project, by reason: the failed health wait's main reason (CrashLoopBackOff, ImagePullBackOff, ...), Timeout, other, or error for a run that failed outside its health wait.
# TYPE kubeplan_run_failures_total counter
kubeplan_run_failures_total{project="web",reason="CrashLoopBackOff"} 2
kubeplan_run_failures_total{project="web",reason="error"} 1
# HELP kubeplan_last_failure_reason 1 with the reason of the project's last run while it failed (as kubeplan_run_failures_total's reason); absent after a success.
# TYPE kubeplan_last_failure_reason gauge
kubeplan_last_failure_reason{project="web",reason="error"} 1
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "kubeplan_run_failures_total", "kubeplan_last_failure_reason"); err != nil {
		t.Error(err)
	}
	m.observe(ok)
	if n := testutil.CollectAndCount(m.lastReason); n != 0 {
		t.Errorf("%d last-failure series after a success", n)
	}
}

// A failed health wait's Event is HealthCheckFailed, as Flux's, and its
// note says why; other failures stay ReconciliationFailed.
func TestEventOfAFailedWait(t *testing.T) {
	r := bad
	r.Err = waitFailed("CrashLoopBackOff", false)
	reason, typ, ok := reasonOf(r)
	if reason != ReasonHealthCheckFailed || typ != "Warning" || !ok {
		t.Errorf("event %s %s %v", reason, typ, ok)
	}
	if got, want := note(r), "revision fedcba9: deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods)"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	if reason, _, _ := reasonOf(bad); reason != ReasonFailed {
		t.Errorf("a lint failure's Event is %s", reason)
	}
}

// serve hands the notifier each diagnosed workload of a failed wait.
func TestNotifyCarriesFailures(t *testing.T) {
	var o observed
	on := Notify(&o, nil)
	r := bad
	r.Err = waitFailed("CrashLoopBackOff", false)
	on(context.Background(), r)
	on(context.Background(), bad)
	if len(o.runs) != 2 {
		t.Fatalf("%d runs", len(o.runs))
	}
	fs := o.runs[0].Failures
	if len(fs) != 1 || fs[0].Workload != "deployment.apps/web" || fs[0].Namespace != "shop" || fs[0].Reason != "CrashLoopBackOff" ||
		fs[0].Source != "app/web.yaml:1:1" || fs[0].Summary != "deployment.apps/web: CrashLoopBackOff: container main exit code 1 (2 pods)" {
		t.Errorf("failures %+v", fs)
	}
	if o.runs[1].Failures != nil {
		t.Errorf("a lint failure has failures %+v", o.runs[1].Failures)
	}
}
