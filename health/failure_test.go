package health

import (
	"errors"
	"fmt"
	"testing"
)

func TestDiagnosedAndReason(t *testing.T) {
	d := &Diagnosis{Causes: []Cause{{Signal: Signal{Reason: "CrashLoopBackOff"}, Pods: 2}, {Signal: Signal{Reason: "OOMKilled"}, Pods: 1}}}
	ue := &UnhealthyError{Results: []Result{{Status: Failed}, {Status: Failed, Diagnosis: d}, {Status: InProgress, Diagnosis: &Diagnosis{}}}}
	err := fmt.Errorf("applying: %w", ue)
	got := Diagnosed(err)
	if len(got) != 2 || got[0].Diagnosis != d {
		t.Fatalf("Diagnosed = %+v, want the two results with a diagnosis, in order", got)
	}
	if r := FailureReason(got[0]); r != "CrashLoopBackOff" {
		t.Errorf("FailureReason = %q, want the first cause's reason", r)
	}
	if r := FailureReason(got[1]); r != InProgress {
		t.Errorf("FailureReason of a diagnosis without causes = %q, want the status", r)
	}
	if Diagnosed(errors.New("other")) != nil {
		t.Error("Diagnosed of an error that is no wait failure is not nil")
	}
	var none *Diagnosis
	if none.Reason() != "" {
		t.Error("nil diagnosis has a reason")
	}
}
