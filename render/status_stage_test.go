package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// status says which stage a failed ordered run stopped at and how its
// SyncFail hooks went, in text and json, for one ApplySet and in a run's
// "need a look" section.
func TestStatusSaysTheStageARunStoppedAt(t *testing.T) {
	st := &apply.Status{ApplySet: "configmap/kubeplan-web", Namespace: "shop", Tooling: "kubeplan/v1", Result: "failed",
		LastError: "stage wave 1: job.batch/migrate: BackoffLimitExceeded",
		LastFailure: &apply.LastFailure{Version: apply.LastFailureVersion, Stage: "wave 1", SyncFail: apply.SyncFailFailed,
			Workloads: []apply.FailedWorkload{{Workload: "job.batch/migrate", Namespace: "shop", Status: "Failed", Reason: "BackoffLimitExceeded"}}}}
	var b bytes.Buffer
	if err := Status(&b, "text", st); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Result:      failed\nStopped at:  stage wave 1 (the stages after it did not run; the SyncFail hooks failed)\n",
		"Error:       stage wave 1: job.batch/migrate", "Last failure:\n  job.batch/migrate in namespace shop: BackoffLimitExceeded\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := Status(&b, "json", st); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		LastFailure struct{ Stage, SyncFail string } `json:"lastFailure"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.LastFailure.Stage != "wave 1" || doc.LastFailure.SyncFail != "failed" {
		t.Errorf("json (%v): %s", err, b.String())
	}

	// A stage that failed with no workload to diagnose: the stage line, no
	// empty "Last failure:" section; the SyncFail hooks went well.
	st.LastFailure = &apply.LastFailure{Version: apply.LastFailureVersion, Stage: "PreSync hooks\x1b[31m", SyncFail: apply.SyncFailSucceeded, Workloads: []apply.FailedWorkload{}}
	b.Reset()
	if err := Status(&b, "text", st); err != nil {
		t.Fatal(err)
	}
	out = b.String()
	if !strings.Contains(out, "Stopped at:  stage PreSync hooks\\x1b[31m (the stages after it did not run; the SyncFail hooks, if any, succeeded)\n") ||
		strings.Contains(out, "Last failure:") || strings.Contains(out, "\x1b") {
		t.Errorf("stage without workloads:\n%s", out)
	}

	// A run over projects shows it under the project that needs a look.
	b.Reset()
	r := &run.Report{Projects: []run.ProjectReport{{Project: project.Project{Name: "web"}, Status: run.Applied, Namespace: "shop", ApplySet: st.ApplySet, Health: st}}}
	if err := RunStatus(&b, "text", r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Stopped at:  stage PreSync hooks") {
		t.Errorf("run status:\n%s", b.String())
	}

	// A run without stages shows no stage line, as before.
	st.LastFailure = &apply.LastFailure{Version: apply.LastFailureVersion, Workloads: []apply.FailedWorkload{{Workload: "deployment.apps/web", Reason: "CrashLoopBackOff"}}}
	b.Reset()
	if err := Status(&b, "text", st); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Stopped at") || !strings.Contains(b.String(), "Last failure:") {
		t.Errorf("a run without stages:\n%s", b.String())
	}
}
