package health

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

// The pod fixtures below are status blocks as the kubelet writes them
// (k8s.io/kubernetes pkg/kubelet/kubelet_pods.go, convertToAPIContainerStatuses;
// images.ErrImagePullBackOff, kuberuntime's CrashLoopBackOff message).

const ffPodHead = `apiVersion: v1
kind: Pod
metadata: {name: web-7d9c-abcde, namespace: ns, labels: {app: web}}
spec:
  containers: [{name: web, image: web:1}]
`

const ffImagePullBackOff = ffPodHead + `status:
  phase: Pending
  containerStatuses:
  - name: web
    image: registry.example/web:doesnotexist
    imageID: ""
    ready: false
    restartCount: 0
    started: false
    state:
      waiting:
        reason: ImagePullBackOff
        message: 'Back-off pulling image "registry.example/web:doesnotexist": ErrImagePull: not found'
`

const ffErrImagePull = ffPodHead + `status:
  phase: Pending
  containerStatuses:
  - name: web
    image: registry.example/web:doesnotexist
    ready: false
    restartCount: 0
    started: false
    state:
      waiting:
        reason: ErrImagePull
        message: 'rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/web:doesnotexist": not found'
`

const ffCrashLoop = ffPodHead + `status:
  phase: Running
  containerStatuses:
  - name: web
    image: web:1
    ready: false
    restartCount: 3
    started: false
    lastState:
      terminated:
        exitCode: 1
        reason: Error
        message: 'panic: no DATABASE_URL'
        startedAt: "2026-12-02T01:00:00Z"
        finishedAt: "2026-12-02T01:00:01Z"
    state:
      waiting:
        reason: CrashLoopBackOff
        message: back-off 40s restarting failed container=web pod=web-7d9c-abcde_ns(uid)
`

const ffOOMRunning = ffPodHead + `status:
  phase: Running
  containerStatuses:
  - name: web
    image: web:1
    ready: true
    restartCount: 1
    started: true
    lastState:
      terminated:
        exitCode: 137
        reason: OOMKilled
    state:
      running: {startedAt: "2026-12-02T01:00:05Z"}
`

const ffConfigError = ffPodHead + `status:
  phase: Pending
  containerStatuses:
  - name: web
    image: web:1
    ready: false
    restartCount: 0
    started: false
    state:
      waiting:
        reason: CreateContainerConfigError
        message: couldn't find key password in Secret ns/db
`

const ffInvalidImage = ffPodHead + `status:
  phase: Pending
  containerStatuses:
  - name: web
    image: "web::1"
    ready: false
    restartCount: 0
    state:
      waiting:
        reason: InvalidImageName
        message: 'Failed to apply default image tag "web::1": couldn''t parse image name'
`

const ffInitFailed = ffPodHead + `status:
  phase: Pending
  initContainerStatuses:
  - name: migrate
    image: migrate:1
    ready: false
    restartCount: 2
    lastState:
      terminated: {exitCode: 3, reason: Error}
    state:
      terminated: {exitCode: 3, reason: Error, message: "migration 42 failed"}
  containerStatuses:
  - name: web
    image: web:1
    ready: false
    restartCount: 0
    state:
      waiting: {reason: PodInitializing}
`

const ffInitFailedNever = ffPodHead + `status:
  phase: Failed
  initContainerStatuses:
  - name: migrate
    image: migrate:1
    ready: false
    restartCount: 0
    state:
      terminated: {exitCode: 3, reason: Error}
`

const ffUnschedulable = ffPodHead + `status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: '0/1 nodes are available: 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.'
`

const ffUnschedulableSelector = ffPodHead + `status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector."
`

const ffUnschedulablePVC = ffPodHead + `status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "False"
    reason: Unschedulable
    message: '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.'
`

const ffCreating = ffPodHead + `status:
  phase: Pending
  containerStatuses:
  - name: web
    image: web:1
    ready: false
    restartCount: 0
    started: false
    state:
      waiting: {reason: ContainerCreating}
`

const ffStarting = ffPodHead + `status:
  phase: Running
  containerStatuses:
  - name: web
    image: web:1
    ready: false
    restartCount: 0
    started: true
    state:
      running: {startedAt: "2026-12-02T01:00:05Z"}
`

const ffPending = ffPodHead + `status:
  phase: Pending
  conditions:
  - type: PodScheduled
    status: "True"
`

// ffClock is a tracker on a clock the test moves.
func ffClock() (*signalTracker, *time.Time) {
	now := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	t := newSignalTracker()
	t.now = func() time.Time { return now }
	return t, &now
}

func ffPods(t *testing.T, ys ...string) []unstructured.Unstructured {
	var out []unstructured.Unstructured
	for _, y := range ys {
		out = append(out, *healthObj(t, y))
	}
	return out
}

func TestFailFastClasses(t *testing.T) {
	for _, tc := range []struct {
		name, pod string
		// after is when the signal fails the wait (seen continuously).
		after             time.Duration
		reason, container string
		init, previous    bool
		message, termMsg  string
	}{
		{name: "CrashLoopBackOff", pod: ffCrashLoop, reason: "CrashLoopBackOff", container: "web", previous: true, message: "back-off 40s", termMsg: "panic: no DATABASE_URL"},
		{name: "OOMKilled with a restart", pod: ffOOMRunning, reason: "OOMKilled", container: "web", previous: true},
		{name: "InvalidImageName", pod: ffInvalidImage, reason: "InvalidImageName", container: "web", message: "couldn't parse"},
		{name: "CreateContainerConfigError", pod: ffConfigError, after: failFastConfig, reason: "CreateContainerConfigError", container: "web", message: "couldn't find key password"},
		{name: "a failed init container restarting", pod: ffInitFailed, reason: "InitContainerFailed", container: "migrate", init: true, termMsg: "migration 42 failed"},
		{name: "a failed init container, restartPolicy Never", pod: ffInitFailedNever, reason: "InitContainerFailed", container: "migrate", init: true},
		{name: "FailedScheduling: insufficient memory", pod: ffUnschedulable, after: failFastUnschedulable, reason: "FailedScheduling", message: "Insufficient memory"},
		{name: "FailedScheduling: no node matches", pod: ffUnschedulableSelector, after: failFastUnschedulable, reason: "FailedScheduling", message: "node affinity/selector"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, now := ffClock()
			pods := ffPods(t, tc.pod)
			if tc.after > 0 {
				if _, ok := tr.fatal(pods); ok {
					t.Fatalf("failed at the first look; want after %s", tc.after)
				}
				*now = now.Add(tc.after - time.Second)
				if _, ok := tr.fatal(pods); ok {
					t.Fatalf("failed before %s", tc.after)
				}
				*now = now.Add(time.Second)
			}
			s, ok := tr.fatal(pods)
			if !ok {
				t.Fatal("did not fail")
			}
			if s.Reason != tc.reason || s.Container != tc.container || s.Init != tc.init || s.Previous != tc.previous || s.Pod != "web-7d9c-abcde" {
				t.Errorf("signal = %+v", s)
			}
			if !strings.Contains(s.Message, tc.message) || !strings.Contains(s.TerminationMessage, tc.termMsg) {
				t.Errorf("message %q, termination %q", s.Message, s.TerminationMessage)
			}
		})
	}
}

// An image pull fails the wait only once the kubelet backed off and the
// failure lasted failFastPull: a first ErrImagePull heals often.
func TestFailFastImagePull(t *testing.T) {
	tr, now := ffClock()
	pull := ffPods(t, ffErrImagePull)
	for range 5 {
		if _, ok := tr.fatal(pull); ok {
			t.Fatal("ErrImagePull without a back-off failed the wait")
		}
		*now = now.Add(10 * time.Second)
	}

	tr, now = ffClock()
	if _, ok := tr.fatal(pull); ok {
		t.Fatal("a first ErrImagePull failed the wait")
	}
	*now = now.Add(5 * time.Second)
	backoff := ffPods(t, ffImagePullBackOff)
	if _, ok := tr.fatal(backoff); ok {
		t.Fatal("failed 5 s after the first pull error")
	}
	*now = now.Add(5 * time.Second)
	s, ok := tr.fatal(backoff)
	if !ok || s.Reason != "ImagePullBackOff" || s.Container != "web" || !strings.Contains(s.Message, "doesnotexist") {
		t.Fatalf("after a back-off, 10 s after the first error: %+v, %v", s, ok)
	}
}

// Signals that heal, or that are not signals at all, never fail the wait.
func TestFailFastHealing(t *testing.T) {
	for name, y := range map[string]string{
		"a container starting":               ffStarting,
		"a container being created":          ffCreating,
		"a pod Pending":                      ffPending,
		"unschedulable for an unbound claim": ffUnschedulablePVC,
	} {
		t.Run(name, func(t *testing.T) {
			tr, now := ffClock()
			pods := ffPods(t, y)
			for range 7 {
				if s, ok := tr.fatal(pods); ok {
					t.Fatalf("failed: %+v", s)
				}
				*now = now.Add(10 * time.Second)
			}
		})
	}
	// A pod Pending for 10 s, then its container starts.
	tr, now := ffClock()
	for _, y := range []string{ffPending, ffCreating, ffStarting} {
		if s, ok := tr.fatal(ffPods(t, y)); ok {
			t.Fatalf("failed: %+v", s)
		}
		*now = now.Add(5 * time.Second)
	}
	// A pod being deleted shows nothing.
	p := healthObj(t, ffCrashLoop)
	del := metav1.NewTime(time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC))
	p.SetDeletionTimestamp(&del)
	if got := classifyPod(p); len(got) != 0 {
		t.Fatalf("a pod being deleted: %+v", got)
	}
}

// One cause across many pods is one cause with a count.
func TestCausesCounted(t *testing.T) {
	a, b := healthObj(t, ffCrashLoop), healthObj(t, ffCrashLoop)
	b.SetName("web-7d9c-fghij")
	c := healthObj(t, ffConfigError)
	c.SetName("web-7d9c-klmno")
	got := causesOf([]unstructured.Unstructured{*a, *b, *c})
	if len(got) != 2 || got[0].Reason != "CrashLoopBackOff" || got[0].Pods != 2 || got[0].Pod != "web-7d9c-abcde" ||
		got[1].Reason != "CreateContainerConfigError" || got[1].Pods != 1 {
		t.Fatalf("causes = %+v", got)
	}
}

// A rollout that replaces crashing pods does not fail on the old ones:
// only the pods of the workload's current revision count.
func TestFailFastCurrentRevisionOnly(t *testing.T) {
	deploy := healthObj(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ns, generation: 2}
spec: {selector: {matchLabels: {app: web}}}
status: {observedGeneration: 2, updatedReplicas: 1}
`)
	// Before the controller created a pod of the new template, no pod is
	// current (the old ones may be the crash this rollout fixes).
	unseen := deploy.DeepCopy()
	unstructured.SetNestedField(unseen.Object, int64(0), "status", "updatedReplicas")
	old := healthObj(t, ffCrashLoop)
	old.SetLabels(map[string]string{"app": "web", "pod-template-hash": "old"})
	old.SetCreationTimestamp(metav1.NewTime(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)))
	fresh := healthObj(t, ffCreating)
	fresh.SetName("web-new-abcde")
	fresh.SetLabels(map[string]string{"app": "web", "pod-template-hash": "new"})
	fresh.SetCreationTimestamp(metav1.NewTime(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)))
	if got := healthCurrentPods(unseen, []unstructured.Unstructured{*old}); len(got) != 0 {
		t.Fatalf("before the new revision's pods: current = %d", len(got))
	}
	pods := healthCurrentPods(deploy, []unstructured.Unstructured{*old, *fresh})
	if len(pods) != 1 || pods[0].GetName() != "web-new-abcde" {
		t.Fatalf("current pods = %d", len(pods))
	}
	tr, _ := ffClock()
	if s, ok := tr.fatal(pods); ok {
		t.Fatalf("failed on an old pod: %+v", s)
	}
	// The new revision crashing fails it.
	crash := healthObj(t, ffCrashLoop)
	crash.SetLabels(map[string]string{"app": "web", "pod-template-hash": "new"})
	crash.SetCreationTimestamp(metav1.NewTime(time.Date(2026, 12, 2, 0, 0, 1, 0, time.UTC)))
	if _, ok := tr.fatal(healthCurrentPods(deploy, []unstructured.Unstructured{*old, *fresh, *crash})); !ok {
		t.Fatal("the new revision's crash loop did not fail the wait")
	}
	// A StatefulSet names its revision.
	sts := healthObj(t, `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: ns}
status: {updateRevision: db-2}
`)
	a, b := healthObj(t, ffCrashLoop), healthObj(t, ffCreating)
	a.SetLabels(map[string]string{"controller-revision-hash": "db-1"})
	b.SetLabels(map[string]string{"controller-revision-hash": "db-2"})
	if got := healthCurrentPods(sts, []unstructured.Unstructured{*a, *b}); len(got) != 1 || got[0].GetLabels()["controller-revision-hash"] != "db-2" {
		t.Fatalf("statefulset current pods = %+v", got)
	}
}

// ffJobPodFailed is a Job's pod (restartPolicy Never) whose container
// failed: the Job retries it until its backoffLimit.
const ffJobPodFailed = `apiVersion: v1
kind: Pod
metadata:
  name: report-x7k2p
  namespace: ns
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: report, uid: 0a6f, controller: true}]
spec:
  restartPolicy: Never
  containers: [{name: main, image: report:1}]
status:
  phase: Failed
  containerStatuses:
  - name: main
    image: report:1
    ready: false
    restartCount: 0
    state:
      terminated: {exitCode: 1, reason: Error}
`

// A failed pod of a Job never fails the wait by itself (the Job may retry
// it; its Failed condition, BackoffLimitExceeded, is what fails), but it
// is the cause the diagnosis reports.
func TestFailFastJobPodLeftToTheJob(t *testing.T) {
	tr, now := ffClock()
	pods := ffPods(t, ffJobPodFailed)
	for range 3 {
		if s, ok := tr.fatal(pods); ok {
			t.Fatalf("a Job's failed pod failed the wait: %+v", s)
		}
		*now = now.Add(time.Minute)
	}
	causes := causesOf(pods)
	if len(causes) != 1 || causes[0].Reason != "Error" || causes[0].Container != "main" || causes[0].ExitCode != 1 || causes[0].Pods != 1 {
		t.Errorf("causes = %+v", causes)
	}
	// The same pod owned by a ReplicaSet fails at once.
	rs := ffPods(t, strings.Replace(ffJobPodFailed, "{apiVersion: batch/v1, kind: Job,", "{apiVersion: apps/v1, kind: ReplicaSet,", 1))
	if s, ok := newSignalTracker().fatal(rs); !ok || s.Reason != "Error" {
		t.Errorf("a ReplicaSet's failed pod: %+v, %v", s, ok)
	}
}

// A healthy rollout's pods show no signal, so fail fast looks at no
// workload's pods; a pod that shows one makes its namespace looked at
// until it is gone or heals. A bare Pod is always looked at.
func TestFailFastLooksOnlyWhereSignals(t *testing.T) {
	s := newHealthState(nil, nil, "")
	s.failFast = newSignalTracker()
	g := &healthGroup{gvr: healthPodsGVR, ns: "ns"}
	deploy := healthObj(t, healthDeploy)
	running := healthObj(t, ffPodHead+"status: {phase: Running}\n")
	s.applyPods(healthEvent{g: g, listed: true, objs: []*unstructured.Unstructured{running}})
	if s.maySignal(deploy) {
		t.Error("a namespace of running pods is looked at")
	}
	crash := healthObj(t, ffImagePullBackOff)
	s.applyPods(healthEvent{g: g, obj: crash})
	if !s.maySignal(deploy) {
		t.Error("a pod backing off an image pull is not looked at")
	}
	s.applyPods(healthEvent{g: g, obj: running})
	if s.maySignal(deploy) {
		t.Error("the pod healed and its namespace is still looked at")
	}
	s.applyPods(healthEvent{g: g, obj: crash})
	s.applyPods(healthEvent{g: g, typ: watch.Deleted, obj: crash})
	if s.maySignal(deploy) {
		t.Error("the pod is gone and its namespace is still looked at")
	}
	if !s.maySignal(running) {
		t.Error("a bare Pod is not looked at")
	}
}
