package apply

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// failedWait is a failed health wait's error with n crash-looping
// Deployments, each with logLines log lines of lineLen bytes and events.
func failedWait(n, logLines, lineLen, events int) error {
	var results []health.Result
	for i := range n {
		c := health.Cause{Signal: health.Signal{Pod: fmt.Sprintf("web%d-7d9c-abcde", i), Container: "main", Reason: "CrashLoopBackOff",
			Message: "back-off 10s restarting failed container", Restarts: 3, ExitCode: 1}, Pods: 2}
		for l := range logLines {
			c.Log = append(c.Log, fmt.Sprintf("line %02d %s", l, strings.Repeat("x", lineLen)))
		}
		d := &health.Diagnosis{Source: fmt.Sprintf("deploy/web%d.yaml:1:1", i), Causes: []health.Cause{c}}
		for e := range events {
			d.Events = append(d.Events, health.Event{Object: "Pod/" + c.Pod, Reason: "BackOff", Note: fmt.Sprintf("event %02d %s", e, strings.Repeat("y", lineLen)), Count: 2})
		}
		results = append(results, health.Result{Ref: kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: "shop", Name: fmt.Sprintf("web%d", i)},
			Status: "Failed", Message: "CrashLoopBackOff", Diagnosis: d})
	}
	return fmt.Errorf("applying: %w", &health.UnhealthyError{Results: results})
}

func TestLastFailureRecordsTheDiagnosis(t *testing.T) {
	s := lastFailureRecord(failedWait(1, 3, 10, 1))
	lf := ReadLastFailure(s)
	if lf == nil || lf.Truncated || len(lf.Workloads) != 1 {
		t.Fatalf("record %s read as %+v", s, lf)
	}
	f := lf.Workloads[0]
	c := f.Causes[0]
	if f.Workload != "deployment.apps/web0" || f.Namespace != "shop" || f.Reason != "CrashLoopBackOff" || f.Source != "deploy/web0.yaml:1:1" ||
		c.Container != "main" || c.Pods != 2 || c.ExitCode != 1 || len(c.Log) != 3 || len(f.Events) != 1 {
		t.Fatalf("record %s", s)
	}
	if strings.Contains(s, "\n") || strings.Contains(s, "  ") {
		t.Errorf("record is not compact JSON: %s", s)
	}
	if lastFailureRecord(fmt.Errorf("dry-run: denied")) != "" {
		t.Error("an error that is not a failed wait recorded a failure")
	}
	if ReadLastFailure(`{"version":2,"workloads":[{"workload":"x"}]}`) != nil || ReadLastFailure("not json") != nil {
		t.Error("a record of another version or not JSON was read")
	}
}

func TestLastFailureCapDropsLogsThenEventsThenWorkloads(t *testing.T) {
	// 20 log lines of 300 bytes and 10 events: about 9 KiB each.
	err := failedWait(1, 20, 300, 10)
	s := lastFailureRecord(err)
	if len(s) > maxLastFailure || ReadLastFailure(s).Truncated {
		t.Fatalf("one workload (%d bytes) was truncated", len(s))
	}
	// Three such workloads: logs go first, the newest lines kept, events stay.
	err = failedWait(3, 20, 300, 10)
	s = lastFailureRecord(err)
	lf := ReadLastFailure(s)
	if len(s) > maxLastFailure || lf == nil || !lf.Truncated || len(lf.Workloads) != 3 {
		t.Fatalf("%d bytes, %+v", len(s), lf)
	}
	for _, f := range lf.Workloads {
		if n := len(f.Causes[0].Log); n == 20 || n > 0 && !strings.HasPrefix(f.Causes[0].Log[n-1], "line 19 ") {
			t.Errorf("%s: log %d lines, the newest kept? %v", f.Workload, n, f.Causes[0].Log)
		}
		if len(f.Events) != 10 {
			t.Errorf("%s: events dropped (%d) before the logs were gone", f.Workload, len(f.Events))
		}
	}
	// The run's own results keep everything.
	if got := health.Diagnosed(err)[0].Diagnosis.Causes[0].Log; len(got) != 20 {
		t.Errorf("the record shortened the run's diagnosis: %d lines", len(got))
	}
	// Many workloads: logs, then events go, then workloads at the end.
	s = lastFailureRecord(failedWait(100, 20, 300, 10))
	lf = ReadLastFailure(s)
	if len(s) > maxLastFailure || lf == nil || !lf.Truncated || len(lf.Workloads) == 0 || len(lf.Workloads) >= 100 || lf.Workloads[0].Workload != "deployment.apps/web0" {
		t.Fatalf("%d bytes, %d workloads", len(s), len(lf.Workloads))
	}
	for _, f := range lf.Workloads {
		if len(f.Causes[0].Log) != 0 || len(f.Events) != 0 || f.Causes[0].Reason != "CrashLoopBackOff" {
			t.Fatalf("%s kept logs or events while workloads were dropped: %+v", f.Workload, f)
		}
	}
	// A single huge message is clipped.
	huge := failedWait(1, 0, 0, 0)
	health.Diagnosed(huge)[0].Diagnosis.Causes[0].Message = strings.Repeat("é", 20000)
	s = lastFailureRecord(huge)
	lf = ReadLastFailure(s)
	if len(s) > maxLastFailure || lf == nil || !lf.Truncated || !strings.HasSuffix(lf.Workloads[0].Causes[0].Message, "...") {
		t.Fatalf("huge message: %d bytes", len(s))
	}
}

func TestOwnsAnnotation(t *testing.T) {
	fields := func(key string) *metav1.FieldsV1 {
		raw, _ := json.Marshal(map[string]any{"f:metadata": map[string]any{"f:annotations": map[string]any{"f:" + key: map[string]any{}}}})
		return &metav1.FieldsV1{Raw: raw}
	}
	managed := []metav1.ManagedFieldsEntry{
		{Manager: "kubeplan", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: fields(AnnotationLastError)},
		{Manager: "kubeplan-record", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: fields(AnnotationLastFailure)},
		{Manager: "other", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: fields(AnnotationLastFailure)},
	}
	if ownsAnnotation(managed, "kubeplan", AnnotationLastFailure) {
		t.Error("kubeplan owns last-failure that only others hold")
	}
	if !ownsAnnotation(managed, "kubeplan", AnnotationLastError) {
		t.Error("kubeplan's apply alone holds last-error: not seen")
	}
	mine := metav1.ManagedFieldsEntry{Manager: "kubeplan", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: fields(AnnotationLastFailure)}
	if ownsAnnotation(append(managed, mine), "kubeplan", AnnotationLastFailure) {
		t.Error("last-failure held by kubeplan and by a merge patch's manager: leaving it out of the apply would not remove it")
	}
	if !ownsAnnotation([]metav1.ManagedFieldsEntry{mine}, "kubeplan", AnnotationLastFailure) {
		t.Error("kubeplan's apply alone holds last-failure: not seen")
	}
}
