package apply

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A staged run's failure records the stage it stopped at and how the
// SyncFail hooks went, with the failed wait's diagnosis when there is one.
func TestLastFailureRecordsTheStage(t *testing.T) {
	// A wave whose Deployment crash-loops; the SyncFail hooks succeeded.
	err := fmt.Errorf("applying: %w", &StageError{Stage: "wave 1", Err: failedWait(1, 2, 10, 1)})
	s := lastFailureRecord(err)
	lf := ReadLastFailure(s)
	if lf == nil || lf.Stage != "wave 1" || lf.SyncFail != SyncFailSucceeded || len(lf.Workloads) != 1 || lf.Workloads[0].Workload != "deployment.apps/web0" {
		t.Fatalf("record %s read as %+v", s, lf)
	}
	if !strings.Contains(s, `"stage":"wave 1","syncFail":"succeeded"`) {
		t.Errorf("record %s lacks the stage fields", s)
	}
	// A stage that failed without a diagnosis (its apply request was
	// refused) is recorded too, with no workloads; the SyncFail hooks failed.
	err = &StageError{Stage: "PreSync hooks", Err: errors.New("job.batch/migrate: forbidden"), OnFail: errors.New("job.batch/page: BackoffLimitExceeded")}
	s = lastFailureRecord(err)
	lf = ReadLastFailure(s)
	if lf == nil || lf.Stage != "PreSync hooks" || lf.SyncFail != SyncFailFailed || len(lf.Workloads) != 0 {
		t.Fatalf("record %s read as %+v", s, lf)
	}
	if !strings.Contains(s, `"workloads":[]`) {
		t.Errorf("a record without workloads does not say so as []: %s", s)
	}
	// A run without stages records as before: no stage fields.
	if s := lastFailureRecord(failedWait(1, 1, 10, 0)); strings.Contains(s, "stage") || strings.Contains(s, "syncFail") {
		t.Errorf("a run without stages recorded stage fields: %s", s)
	}
	if lastFailureRecord(errors.New("dry-run: denied")) != "" {
		t.Error("an error that is neither a stage's nor a failed wait recorded a failure")
	}
}

// A record written before stages existed (no "stage") reads as it did; a
// record with neither a stage nor a workload is not one.
func TestLastFailureReadsAnOlderRecord(t *testing.T) {
	old := `{"version":1,"workloads":[{"workload":"deployment.apps/web","namespace":"shop","status":"Failed","reason":"CrashLoopBackOff","source":"deploy/web.yaml:1:1"}]}`
	lf := ReadLastFailure(old)
	if lf == nil || lf.Stage != "" || lf.SyncFail != "" || len(lf.Workloads) != 1 || lf.Workloads[0].Reason != "CrashLoopBackOff" || lf.Workloads[0].Source != "deploy/web.yaml:1:1" {
		t.Fatalf("older record read as %+v", lf)
	}
	if ReadLastFailure(`{"version":1,"workloads":[]}`) != nil || ReadLastFailure(`{"version":1}`) != nil {
		t.Error("an empty record was read")
	}
	if ReadLastFailure(`{"version":2,"stage":"wave 1","workloads":[]}`) != nil {
		t.Error("a record of another version was read")
	}
}

// The stage's name is capped like the other texts, and a stage record
// stays within the annotation's cap with many workloads.
func TestLastFailureStageWithinTheCap(t *testing.T) {
	s := lastFailureRecord(&StageError{Stage: strings.Repeat("w", 5000), Err: errors.New("x")})
	lf := ReadLastFailure(s)
	if lf == nil || len(lf.Stage) > maxStageName+3 || !strings.HasSuffix(lf.Stage, "...") {
		t.Fatalf("a long stage name recorded as %d bytes", len(s))
	}
	s = lastFailureRecord(&StageError{Stage: "wave 2", Err: failedWait(100, 20, 300, 10)})
	lf = ReadLastFailure(s)
	if len(s) > maxLastFailure || lf == nil || lf.Stage != "wave 2" || !lf.Truncated || len(lf.Workloads) == 0 {
		t.Fatalf("%d bytes, %+v", len(s), lf)
	}
}

// last-error leads with the stage and says it once, whether the
// StageError is the run's error or wrapped in it; other errors are as
// they were.
func TestLastErrorSaysTheStage(t *testing.T) {
	se := &StageError{Stage: "wave 1", Err: errors.New("deployment.apps/web: CrashLoopBackOff")}
	for _, c := range []struct {
		err  error
		want string
	}{
		{se, "stage wave 1: deployment.apps/web: CrashLoopBackOff"},
		{fmt.Errorf("applying: %w", se), "stage wave 1: applying: deployment.apps/web: CrashLoopBackOff"},
		{errors.Join(se, errors.New("the run's result could not be recorded")), "stage wave 1: deployment.apps/web: CrashLoopBackOff\nthe run's result could not be recorded"},
		{&StageError{Stage: "PreSync hooks", Err: errors.New("job.batch/migrate failed"), OnFail: errors.New("job.batch/page failed")},
			"stage PreSync hooks: job.batch/migrate failed; the SyncFail hooks failed too: job.batch/page failed"},
		{errors.New("lint found 1 error"), "lint found 1 error"},
	} {
		if got := lastError(c.err); got != c.want {
			t.Errorf("lastError(%q) = %q, want %q", c.err, got, c.want)
		}
	}
	if stage, syncFail := StoppedAt(errors.New("x")); stage != "" || syncFail != "" {
		t.Errorf("StoppedAt of a plain error: %q %q", stage, syncFail)
	}
}
