package apply

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// A failed ordered run's record on a real parent, written by the end of
// a run (recordResult) and by RecordFailure, is read back by status with
// the stage it stopped at; a record from before stages reads as it did;
// the next good run removes it.
func TestIntegrationStatusReadsTheFailedStage(t *testing.T) {
	testkube.Integration(t)
	cl := testkube.Shared(t)
	ns := cl.Namespace(t)
	c := lockTestClient(t, cl.Narrow(t, "gitops", ns), ns)
	as := applyset.Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: ns}
	ctx := t.Context()

	w := &parentWriter{c: c, opts: Options{ApplySet: &as, FieldManager: "kubeplan", Version: "test"}}
	if err := w.writeUnion(ctx, nil); err != nil {
		t.Fatal(err)
	}
	runErr := fmt.Errorf("applying: %w", &StageError{Stage: "wave 1", Err: failedWait(1, 2, 10, 1), OnFail: errors.New("job.batch/page: BackoffLimitExceeded")})
	if err := w.recordResult(ctx, runErr, nil, true); err != nil {
		t.Fatal(err)
	}
	st, err := ReadStatus(ctx, c, as, nil)
	if err != nil {
		t.Fatal(err)
	}
	lf := st.LastFailure
	if st.Result != "failed" || !strings.HasPrefix(st.LastError, "stage wave 1: applying: ") || strings.Contains(st.LastError, `stage "wave 1"`) ||
		lf == nil || lf.Stage != "wave 1" || lf.SyncFail != SyncFailFailed || len(lf.Workloads) != 1 || lf.Workloads[0].Reason != "CrashLoopBackOff" {
		t.Fatalf("after a failed stage: result %q, last error %q, last failure %+v", st.Result, st.LastError, lf)
	}

	// A run that stops at a stage before writing (RecordFailure's merge
	// patch) records the stage too, without workloads.
	if err := RecordFailure(ctx, c, as, "kubeplan", &StageError{Stage: "PreSync hooks", Err: errors.New("job.batch/migrate: forbidden")}); err != nil {
		t.Fatal(err)
	}
	if st, err = ReadStatus(ctx, c, as, nil); err != nil {
		t.Fatal(err)
	}
	if lf = st.LastFailure; st.LastError != "stage PreSync hooks: job.batch/migrate: forbidden" || lf == nil || lf.Stage != "PreSync hooks" ||
		lf.SyncFail != SyncFailSucceeded || len(lf.Workloads) != 0 {
		t.Fatalf("after RecordFailure: last error %q, last failure %+v", st.LastError, lf)
	}

	// A record an older kubeplan wrote (no stage) still reads.
	old := `{"version":1,"workloads":[{"workload":"deployment.apps/web","namespace":"` + ns + `","status":"Failed","reason":"ImagePullBackOff"}]}`
	cl.Kubectl(t, "-n", ns, "annotate", "--overwrite", "configmap", as.Name, AnnotationLastFailure+"="+old)
	if st, err = ReadStatus(ctx, c, as, nil); err != nil {
		t.Fatal(err)
	}
	if lf = st.LastFailure; lf == nil || lf.Stage != "" || len(lf.Workloads) != 1 || lf.Workloads[0].Reason != "ImagePullBackOff" {
		t.Fatalf("older record read as %+v", lf)
	}

	// The next good run clears the record.
	w = &parentWriter{c: c, opts: Options{ApplySet: &as, FieldManager: "kubeplan", Version: "test"}}
	if err := w.writeUnion(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.recordResult(ctx, nil, nil, true); err != nil {
		t.Fatal(err)
	}
	if st, err = ReadStatus(ctx, c, as, nil); err != nil {
		t.Fatal(err)
	}
	if st.Result != "ok" || st.LastError != "" || st.LastFailure != nil {
		t.Errorf("after a good run: result %q, last error %q, last failure %+v", st.Result, st.LastError, st.LastFailure)
	}
}
