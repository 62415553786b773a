package health

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/yaml"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// healthObj parses a YAML fixture.
func healthObj(t *testing.T, y string) *unstructured.Unstructured {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(y), &m); err != nil {
		t.Fatal(err)
	}
	// JSON numbers decode as float64 here; the dynamic client gives int64.
	return &unstructured.Unstructured{Object: healthInts(m).(map[string]any)}
}

func healthInts(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = healthInts(e)
		}
	case []any:
		for i, e := range x {
			x[i] = healthInts(e)
		}
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}

func healthRefOf(u *unstructured.Unstructured) kube.Ref {
	gvk := u.GroupVersionKind()
	return kube.Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: u.GetNamespace(), Name: u.GetName()}
}

// healthPods is a lister over fixed pods that records the selector asked for.
func healthPods(t *testing.T, sel *string, pods ...string) healthPodLister {
	var items []unstructured.Unstructured
	for _, p := range pods {
		items = append(items, *healthObj(t, p))
	}
	return func(s labels.Selector) ([]unstructured.Unstructured, error) {
		if sel != nil {
			*sel = s.String()
		}
		var out []unstructured.Unstructured
		for _, p := range items {
			if s.Matches(labels.Set(p.GetLabels())) {
				out = append(out, p)
			}
		}
		return out, nil
	}
}

const healthDeploy = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ns, generation: 2}
spec:
  replicas: 3
  progressDeadlineSeconds: 600
  selector: {matchLabels: {app: web}}
`

func healthPod(name, statuses string) string {
	return `
apiVersion: v1
kind: Pod
metadata: {name: ` + name + `, labels: {app: web}}
status:
  phase: Pending
  ` + statuses
}

func TestHealthDeploymentReasons(t *testing.T) {
	notAvailable := `
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 1
  availableReplicas: 1
  conditions:
  - {type: Progressing, status: "True", reason: ReplicaSetUpdated}
  - {type: Available, status: "False", reason: MinimumReplicasUnavailable}
`
	creating := healthPod("web-a", `containerStatuses: [{name: main, state: {waiting: {reason: ContainerCreating}}}]`)
	pullBackOff := healthPod("web-b", `containerStatuses: [{name: main, state: {waiting: {reason: ImagePullBackOff, message: "Back-off pulling image"}}}]`)
	crash := healthPod("web-c", `containerStatuses: [{name: side, state: {running: {}}}, {name: main, state: {waiting: {reason: CrashLoopBackOff}}}]`)
	other := `
apiVersion: v1
kind: Pod
metadata: {name: other, labels: {app: other}}
status: {containerStatuses: [{name: main, state: {waiting: {reason: ErrImagePull}}}]}
`
	for _, tc := range []struct {
		name, deploy, wantStatus, wantMessage string
		pods                                  []string
	}{
		{"image pull", healthDeploy + notAvailable, InProgress, "1/3 available: ImagePullBackOff", []string{creating, pullBackOff, other}},
		{"crash loop", healthDeploy + notAvailable, InProgress, "1/3 available: CrashLoopBackOff", []string{crash}},
		{"only starting", healthDeploy + notAvailable, InProgress, "1/3 available: ContainerCreating", []string{creating}},
		{"no pods: kstatus message", healthDeploy + notAvailable, InProgress, "1/3 available: Available: 1/3", nil},
		{"no status at all", healthDeploy, InProgress, "0/3 available: Replicas: 0/3", nil},
		{"no status, failing pods", healthDeploy, InProgress, "0/3 available: ImagePullBackOff", []string{pullBackOff}},
		{"init container", healthDeploy + notAvailable, InProgress, "1/3 available: ErrImagePull",
			[]string{healthPod("web-i", `initContainerStatuses: [{name: init, state: {waiting: {reason: ErrImagePull}}}]`)}},
		{"unschedulable", healthDeploy + notAvailable, InProgress, "1/3 available: Unschedulable",
			[]string{healthPod("web-u", `conditions: [{type: PodScheduled, status: "False", reason: Unschedulable}]`)}},
		{"replica failure", healthDeploy + notAvailable + `  - {type: ReplicaFailure, status: "True", reason: FailedCreate, message: 'pods "web-x" is forbidden: exceeded quota'}
`, InProgress, `1/3 available: FailedCreate: pods "web-x" is forbidden: exceeded quota`, nil},
		{"deadline exceeded", healthDeploy + `
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 3
  conditions:
  - {type: Progressing, status: "False", reason: ProgressDeadlineExceeded}
`, Failed, "0/3 available: ImagePullBackOff", []string{pullBackOff}},
		{"old generation", healthDeploy + `
status:
  observedGeneration: 1
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 3
  availableReplicas: 3
`, InProgress, "3/3 available: Deployment generation is 2, but latest observed generation is 1", nil},
		{"current", healthDeploy + `
status:
  observedGeneration: 2
  replicas: 3
  updatedReplicas: 3
  readyReplicas: 3
  availableReplicas: 3
  conditions:
  - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}
  - {type: Available, status: "True", reason: MinimumReplicasAvailable}
`, Current, "Deployment is available. Replicas: 3", []string{pullBackOff}},
		{"default replicas", strings.Replace(healthDeploy, "replicas: 3", "paused: false", 1), InProgress, "0/1 available: ImagePullBackOff", []string{pullBackOff}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := healthObj(t, tc.deploy)
			var sel string
			got := healthAssess(healthRefOf(u), u, healthPods(t, &sel, tc.pods...))
			if got.Status != tc.wantStatus || got.Message != tc.wantMessage {
				t.Errorf("got %s %q, want %s %q", got.Status, got.Message, tc.wantStatus, tc.wantMessage)
			}
			if got.Status != Current && sel != "app=web" {
				t.Errorf("pods listed with selector %q, want app=web", sel)
			}
			if got.Ref.String() != "deployment.apps/web" {
				t.Errorf("ref %s", got.Ref)
			}
		})
	}
}

func TestHealthJob(t *testing.T) {
	job := `
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, generation: 1}
spec:
  completions: 1
  selector: {matchLabels: {batch.kubernetes.io/controller-uid: abc}}
`
	running := job + `
status: {startTime: "2030-01-01T00:00:00Z", active: 1}
`
	u := healthObj(t, running)
	// kstatus calls a running Job Current (cli-utils#329); we do not.
	if ks, err := status.Compute(u); err != nil || ks.Status != status.CurrentStatus {
		t.Fatalf("kstatus of a running Job: %v %v (the premise of this test changed)", ks, err)
	}
	pod := `
apiVersion: v1
kind: Pod
metadata: {name: migrate-x, labels: {batch.kubernetes.io/controller-uid: abc}}
status: {containerStatuses: [{name: main, state: {waiting: {reason: ImagePullBackOff}}}]}
`
	for _, tc := range []struct {
		name, job, wantStatus, wantMessage string
		pods                               []string
	}{
		{"running", running, InProgress, "0/1 succeeded", nil},
		{"running, pod failing", running, InProgress, "0/1 succeeded: ImagePullBackOff", []string{pod}},
		{"not started", job, InProgress, "0/1 succeeded", nil},
		{"suspended", job + `
status: {conditions: [{type: Suspended, status: "True"}]}
`, InProgress, "0/1 succeeded: suspended", []string{pod}},
		{"success criteria met, not complete yet", job + `
status: {startTime: "2030-01-01T00:00:00Z", succeeded: 1, conditions: [{type: SuccessCriteriaMet, status: "True"}]}
`, InProgress, "1/1 succeeded", nil},
		{"complete", job + `
status: {startTime: "2030-01-01T00:00:00Z", succeeded: 1, conditions: [{type: SuccessCriteriaMet, status: "True"}, {type: Complete, status: "True"}]}
`, Complete, "1/1 succeeded", nil},
		{"failed", job + `
status: {startTime: "2030-01-01T00:00:00Z", failed: 7, conditions: [{type: FailureTarget, status: "True"}, {type: Failed, status: "True", reason: BackoffLimitExceeded, message: Job has reached the specified backoff limit}]}
`, Failed, "BackoffLimitExceeded: Job has reached the specified backoff limit", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := healthObj(t, tc.job)
			got := healthAssess(healthRefOf(u), u, healthPods(t, nil, tc.pods...))
			if got.Status != tc.wantStatus || got.Message != tc.wantMessage {
				t.Errorf("got %s %q, want %s %q", got.Status, got.Message, tc.wantStatus, tc.wantMessage)
			}
			if want := tc.wantStatus == Complete; got.Healthy() != want {
				t.Errorf("Healthy() = %v", got.Healthy())
			}
		})
	}
}

func TestHealthOtherKinds(t *testing.T) {
	for _, tc := range []struct {
		name, obj, wantStatus, wantMessage string
		pods                               []string
	}{
		{"configmap", `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`, Current, "Resource is always ready", nil},
		{"service", `{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {type: ClusterIP}}`, Current, "Service is ready", nil},
		{"unknown kind", `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, generation: 1}}`, Current, "Resource is current", nil},
		{"custom resource not ready", `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, status: {conditions: [{type: Ready, status: "False", reason: Waiting, message: waiting for the database}]}}`,
			InProgress, "waiting for the database", nil},
		{"terminating", `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, deletionTimestamp: "2030-01-01T00:00:00Z"}}`, Terminating, "Resource scheduled for deletion", nil},
		{"statefulset", `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, generation: 1}
spec: {replicas: 2, selector: {matchLabels: {app: web}}}
status: {observedGeneration: 1, replicas: 2, readyReplicas: 1, currentReplicas: 2}
`, InProgress, "1/2 ready: Unschedulable", []string{healthPod("db-1", `conditions: [{type: PodScheduled, status: "False", reason: Unschedulable}]`)}},
		{"statefulset not observed", `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, generation: 1}
spec: {replicas: 0, selector: {matchLabels: {app: web}}}
`, InProgress, "0/0 ready: StatefulSet generation 1 not observed yet", nil},
		{"daemonset", `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, generation: 1}
spec: {selector: {matchLabels: {app: web}}}
status: {observedGeneration: 1, desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 0, numberReady: 0}
`, InProgress, "0/2 ready: CrashLoopBackOff", []string{healthPod("agent-1", `containerStatuses: [{name: main, state: {waiting: {reason: CrashLoopBackOff}}}]`)}},
		{"replicaset", `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, generation: 1}
spec: {replicas: 2, selector: {matchLabels: {app: web}}}
status: {observedGeneration: 1, replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 1}
`, InProgress, "1/2 available: OOMKilled", []string{healthPod("rs-1", `containerStatuses: [{name: main, state: {terminated: {exitCode: 137, reason: OOMKilled}}}]`)}},
		{"pod", healthPod("p", `containerStatuses: [{name: main, state: {waiting: {reason: ErrImagePull}}}]`), InProgress, "ErrImagePull", nil},
		{"failed pod", `{apiVersion: v1, kind: Pod, metadata: {name: p}, status: {phase: Failed, reason: Evicted}}`, Failed, "pod failed: Evicted", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := healthObj(t, tc.obj)
			got := healthAssess(healthRefOf(u), u, healthPods(t, nil, tc.pods...))
			if got.Status != tc.wantStatus || got.Message != tc.wantMessage {
				t.Errorf("got %s %q, want %s %q", got.Status, got.Message, tc.wantStatus, tc.wantMessage)
			}
		})
	}
}

func TestHealthPodReason(t *testing.T) {
	pods := func(ps ...string) []unstructured.Unstructured {
		var out []unstructured.Unstructured
		for _, p := range ps {
			out = append(out, *healthObj(t, p))
		}
		return out
	}
	deleting := `{apiVersion: v1, kind: Pod, metadata: {name: old, deletionTimestamp: "2030-01-01T00:00:00Z"}, status: {containerStatuses: [{name: main, state: {waiting: {reason: ErrImagePull}}}]}}`
	for _, tc := range []struct {
		name string
		pods []unstructured.Unstructured
		want string
	}{
		{"none", nil, ""},
		{"running", pods(healthPod("a", `containerStatuses: [{name: main, state: {running: {}}}]`)), ""},
		{"bad beats benign", pods(healthPod("a", `containerStatuses: [{name: main, state: {waiting: {reason: PodInitializing}}}]`), healthPod("b", `containerStatuses: [{name: main, state: {waiting: {reason: CreateContainerConfigError}}}]`)), "CreateContainerConfigError"},
		{"first bad wins", pods(healthPod("a", `containerStatuses: [{name: main, state: {waiting: {reason: ImagePullBackOff}}}]`), healthPod("b", `containerStatuses: [{name: main, state: {waiting: {reason: CrashLoopBackOff}}}]`)), "ImagePullBackOff"},
		{"deleting pods ignored", pods(deleting), ""},
		{"exit code", pods(healthPod("a", `containerStatuses: [{name: main, state: {terminated: {exitCode: 3}}}]`)), "exit code 3"},
		{"exit 0 is fine", pods(healthPod("a", `containerStatuses: [{name: main, state: {terminated: {exitCode: 0, reason: Completed}}}]`)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := healthPodReason(tc.pods); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestHealthUnhealthyError(t *testing.T) {
	web := kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Name: "web"}
	job := kube.Ref{Group: "batch", Version: "v1", Kind: "Job", Name: "migrate"}
	e := &UnhealthyError{Timeout: true, After: 5*time.Minute + 30*time.Millisecond, Err: context.DeadlineExceeded, Results: []Result{
		{Ref: web, Status: InProgress, Message: "1/3 available: ImagePullBackOff"},
		{Ref: job, Status: InProgress, Message: "0/1 succeeded"},
	}}
	want := "timed out after 5m0s waiting for 2 objects to become healthy:\n" +
		"deployment.apps/web: 1/3 available: ImagePullBackOff\n" +
		"job.batch/migrate: 0/1 succeeded"
	if got := e.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !errors.Is(e, context.DeadlineExceeded) {
		t.Error("a timeout should wrap context.DeadlineExceeded")
	}
	f := &UnhealthyError{Results: []Result{{Ref: job, Status: Failed, Message: "BackoffLimitExceeded: Job has reached the specified backoff limit"}}}
	if got, want := f.Error(), "1 object failed:\njob.batch/migrate: BackoffLimitExceeded: Job has reached the specified backoff limit"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Integration tests against the shared test cluster.

func healthClient(t *testing.T, c *testkube.Cluster, ns string) *kube.Client {
	t.Helper()
	cl, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func healthApply(t *testing.T, c *testkube.Cluster, ns, manifest string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "m.yaml")
	if err := os.WriteFile(p, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "-n", ns, "apply", "-f", p)
}

func healthSetup(t *testing.T) (*testkube.Cluster, string, *kube.Client) {
	t.Helper()
	testkube.Integration(t)
	t.Parallel()
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	return c, ns, healthClient(t, c, ns)
}

func healthDeployRef(ns, name string) kube.Ref {
	return kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment", Namespace: ns, Name: name}
}

func TestIntegrationHealthDeploymentBecomesCurrent(t *testing.T) {
	c, ns, cl := healthSetup(t)
	healthApply(t, c, ns, testkube.Deployment("web", "nginx:1.27", 3))
	var mu sync.Mutex
	var progress [][]Result
	start := time.Now()
	res, err := Wait(t.Context(), cl, []kube.Ref{healthDeployRef(ns, "web")}, WaitOptions{
		Timeout:  60 * time.Second,
		Interval: 250 * time.Millisecond,
		Progress: func(p []Result) { mu.Lock(); progress = append(progress, p); mu.Unlock() },
	})
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %s", d)
	}
	if len(res) != 1 || res[0].Status != Current {
		t.Fatalf("results %+v", res)
	}
	out := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas}")
	if out != "3" {
		t.Errorf("returned with %q available replicas", out)
	}
	t.Logf("progress calls: %v", progress)
}

func TestIntegrationHealthImagePullTimesOut(t *testing.T) {
	c, ns, cl := healthSetup(t)
	healthApply(t, c, ns, testkube.Deployment("bad", "nginx:doesnotexist", 3)+"---\n"+healthConfigMap)
	refs := []kube.Ref{
		{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: ns, Name: "settings"},
		healthDeployRef(ns, "bad"),
	}
	start := time.Now()
	res, err := Wait(t.Context(), cl, refs, WaitOptions{Timeout: 10 * time.Second, Interval: 500 * time.Millisecond})
	elapsed := time.Since(start)
	var ue *UnhealthyError
	if !errors.As(err, &ue) || !ue.Timeout {
		t.Fatalf("want a timeout, got %v", err)
	}
	if elapsed < 9*time.Second || elapsed > 20*time.Second {
		t.Errorf("returned after %s, want about 10s", elapsed)
	}
	lines := strings.Split(err.Error(), "\n")
	if want := "deployment.apps/bad: 0/3 available: ImagePullBackOff"; !slices.Contains(lines, want) {
		t.Errorf("error has no line %q:\n%v", want, err)
	}
	if len(ue.Results) != 1 || len(lines) != 2 {
		t.Errorf("only the Deployment should be listed:\n%v", err)
	}
	if len(res) != 2 || res[0].Status != Current || res[1].Status != InProgress {
		t.Errorf("results %+v", res)
	}
}

const healthConfigMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: b}
`

func TestIntegrationHealthConfigMapAndServiceAtOnce(t *testing.T) {
	c, ns, cl := healthSetup(t)
	healthApply(t, c, ns, healthConfigMap+`---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`)
	refs := []kube.Ref{
		{Version: "v1", Kind: "ConfigMap", Namespace: ns, Name: "settings"},
		{Version: "v1", Kind: "Service", Name: "web"}, // namespace from the client
	}
	start := time.Now()
	res, err := Wait(t.Context(), cl, refs, WaitOptions{Timeout: 10 * time.Second, Interval: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s: should need a single poll", d)
	}
	for _, r := range res {
		if r.Status != Current {
			t.Errorf("%s: %s %s", r.Ref, r.Status, r.Message)
		}
	}
}

func TestIntegrationHealthJobWaitsForComplete(t *testing.T) {
	c, ns, cl := healthSetup(t)
	healthApply(t, c, ns, `apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: main, image: busybox, command: ["true"]}
`)
	ref := kube.Ref{Group: "batch", Version: "v1", Kind: "Job", Namespace: ns, Name: "migrate"}
	gvr := schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
	// Watch the Job from the side: did kstatus ever call it Current before
	// it was Complete, and when did it become Complete?
	var mu sync.Mutex
	var sawRunningCurrent bool
	var completeSeen time.Time
	ctx, stop := context.WithCancel(t.Context())
	watched := make(chan struct{})
	defer func() { stop(); <-watched }()
	go func() {
		defer close(watched)
		for ctx.Err() == nil {
			u, err := cl.Dynamic.Resource(gvr).Namespace(ns).Get(ctx, "migrate", metav1.GetOptions{})
			if err == nil {
				ks, _ := status.Compute(u)
				_, complete := healthFindCondition(u, "Complete")
				mu.Lock()
				if complete && completeSeen.IsZero() {
					completeSeen = time.Now()
				}
				if !complete && ks != nil && ks.Status == status.CurrentStatus {
					sawRunningCurrent = true
				}
				mu.Unlock()
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	res, err := Wait(t.Context(), cl, []kube.Ref{ref}, WaitOptions{Timeout: 60 * time.Second, Interval: 200 * time.Millisecond})
	returned := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Status != Complete || res[0].Message != "1/1 succeeded" {
		t.Fatalf("results %+v", res)
	}
	u, err := cl.Dynamic.Resource(gvr).Namespace(ns).Get(t.Context(), "migrate", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cond, ok := healthFindCondition(u, "Complete")
	if !ok || cond.status != "True" {
		t.Fatalf("Wait returned before the Job's Complete condition: %v", u.Object["status"])
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m := c.(map[string]any)
		if m["type"] == "Complete" {
			at, err := time.Parse(time.RFC3339, m["lastTransitionTime"].(string))
			// lastTransitionTime has whole seconds, truncated.
			if err == nil && returned.Before(at) {
				t.Errorf("returned at %s, before the Job completed at %s", returned, at)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !completeSeen.IsZero() && returned.Before(completeSeen.Add(-time.Second)) {
		t.Errorf("returned at %s, well before the Job was seen Complete at %s", returned, completeSeen)
	}
	t.Logf("kstatus called the running Job Current: %v", sawRunningCurrent)
}

func TestIntegrationHealthCancelReturnsPromptly(t *testing.T) {
	c, ns, cl := healthSetup(t)
	healthApply(t, c, ns, testkube.Deployment("stuck", "nginx:doesnotexist", 1))
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	_, err := Wait(ctx, cl, []kube.Ref{healthDeployRef(ns, "stuck")}, WaitOptions{Timeout: time.Minute, Interval: 2 * time.Second})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned %s after the start, cancelled after 0.5s", d)
	}
	var ue *UnhealthyError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ue) || ue.Timeout || len(ue.Results) != 1 {
		t.Fatalf("want a cancellation listing the Deployment, got %v", err)
	}
	t.Log(err)
}
