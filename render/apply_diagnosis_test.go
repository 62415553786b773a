package render

import (
	"bytes"
	"testing"

	"github.com/kubeplan/kubeplan/health"
)

// The diagnosis of a failed workload is written under its line: where it
// is defined, each cause with its pod count, the pod's facts, the log
// tail, the events (one cause across pods with their number) and the
// permissions missing; control characters from
// the cluster are escaped.
func TestApplyTextDiagnosis(t *testing.T) {
	r := applyFixture()
	r.Revision, r.Err = nil, "1 object failed"
	web := r.Result.Objects[1].Ref
	r.Result.Health = []health.Result{{Ref: web, Status: health.Failed, Message: "0/2 available: CrashLoopBackOff",
		Diagnosis: &health.Diagnosis{
			Source: "app/web.yaml:1:1",
			Causes: []health.Cause{
				{Signal: health.Signal{Pod: "web-7d9c-abcde", Container: "web", Reason: "CrashLoopBackOff", Message: "back-off 40s restarting failed container",
					Restarts: 3, ExitCode: 1, TerminationMessage: "panic: no DATABASE_URL", Previous: true},
					Pods: 2, Log: []string{"starting", "password=*** \x1b[31m"}},
				{Signal: health.Signal{Pod: "web-7d9c-fghij", Container: "migrate", Init: true, Reason: "InitContainerFailed"}, Pods: 1,
					LogNote: "log not read: missing permission: get pods/log"},
			},
			Events: []health.Event{{Object: "Pod/web-7d9c-abcde", Reason: "BackOff", Note: "Back-off restarting failed container", Count: 5},
				{Object: "Pod/web-7d9c-*", Reason: "BackOff", Note: "Back-off restarting failed container web in pod web-7d9c-*_store(*)", Count: 7, Pods: 3},
				{Object: "Pod/web-7d9c-*", Reason: "Failed", Note: "Error: ImagePullBackOff", Count: 2, Pods: 2}},
			Missing: []string{"missing permission: get pods/log"},
		}}}
	var b bytes.Buffer
	if err := Apply(&b, "text", r); err != nil {
		t.Fatal(err)
	}
	want := `namespace/store unchanged
deployment.apps/web configured
  at app/web.yaml:1:1
  2 pods: container web: CrashLoopBackOff: back-off 40s restarting failed container
    pod web-7d9c-abcde, 3 restarts, exit code 1
    termination message: panic: no DATABASE_URL
    log (last 2 lines, previous instance):
      | starting
      | password=*** \x1b[31m
  init container migrate: InitContainerFailed
    pod web-7d9c-fghij
    log not read: missing permission: get pods/log
  events:
    Pod/web-7d9c-abcde BackOff (x5): Back-off restarting failed container
    Pod/web-7d9c-* (3 pods) BackOff (x7): Back-off restarting failed container web in pod web-7d9c-*_store(*)
    Pod/web-7d9c-* (2 pods) Failed: Error: ImagePullBackOff
  missing permission: get pods/log
configmap/settings created
service/web unchanged
configmap/old pruned
Apply: 1 created, 1 configured, 1 pruned, 2 unchanged.
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
