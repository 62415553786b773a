package apply

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/plan"
)

// A hook that failed carries its wait's diagnosed results through the
// wrapping of the run (hookHealth, health.Diagnosed), and its error still
// reads as before: the hook, its ref and the wait's failure.
func TestHookErrorCarriesHealth(t *testing.T) {
	ref := plan.Ref{Group: "batch", Version: "v1", Kind: "Job", Namespace: "ns", Name: "migrate"}
	diag := &health.Diagnosis{Source: "chart/templates/migrate.yaml:1:1", Causes: []health.Cause{{Signal: health.Signal{Pod: "migrate-x", Container: "main", Reason: "CrashLoopBackOff"}, Pods: 1}}}
	res := []health.Result{{Ref: ref, Status: health.Failed, Message: "0/1 succeeded: CrashLoopBackOff", Diagnosis: diag}}
	wait := &health.UnhealthyError{Results: res}
	err := fmt.Errorf("apply failed, nothing will be pruned: %w", &hookError{hook: "pre-install", ref: ref, results: res, err: wait})
	want := "apply failed, nothing will be pruned: pre-install hook job.batch/migrate did not succeed, the run stops here: " + wait.Error()
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
	if got := hookHealth(err); len(got) != 1 || got[0].Diagnosis != diag {
		t.Errorf("hookHealth = %+v", got)
	}
	if got := health.Diagnosed(err); len(got) != 1 || got[0].Diagnosis.Reason() != "CrashLoopBackOff" {
		t.Errorf("health.Diagnosed = %+v", got)
	}
	if hookHealth(errors.New("apply failed")) != nil || hookHealth(wait) != nil {
		t.Error("hookHealth of an error that is not a hook's failure is not nil")
	}
}
