package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// crashingPod is a pod in namespace ns whose one container a runs image.
func crashingPod(restart v1.RestartPolicy, image string) *v1.Pod {
	p := pod(restart, image)
	p.Namespace = "ns"
	p.Spec.Containers[0].TerminationMessagePolicy = v1.TerminationMessageFallbackToLogsOnError
	return p
}

// step runs the node's status logic for p at now and stores the result, as the API server would.
func step(t *testing.T, p *v1.Pod, now time.Time, prep map[string]prepared) time.Duration {
	t.Helper()
	phase, _ := desiredPhase(p, now)
	st, retry := podStatus(p, phase, "10.244.0.2", nodeIP, metav1.NewTime(now), prep)
	p.Status = st
	return retry
}

func TestCrashLoopBacksOff(t *testing.T) {
	p := crashingPod(v1.RestartPolicyAlways, "app:crashloop")
	prep := map[string]prepared{"a": {log: []string{"hello", "world"}}}
	now := time.Now()
	if retry := step(t, p, now, prep); retry != crashRunFor {
		t.Fatalf("first retry %v, want %v", retry, crashRunFor)
	}
	cs := p.Status.ContainerStatuses[0]
	if cs.State.Running == nil || cs.RestartCount != 0 || cs.Ready || p.Status.Phase != v1.PodRunning {
		t.Fatalf("first: %+v phase %s; want running, not ready, 0 restarts", cs, p.Status.Phase)
	}
	// The first exit is restarted at once.
	now = now.Add(crashRunFor)
	step(t, p, now, prep)
	cs = p.Status.ContainerStatuses[0]
	last := cs.LastTerminationState.Terminated
	if cs.State.Running == nil || cs.RestartCount != 1 || last == nil || last.ExitCode != 1 || last.Reason != "Error" {
		t.Fatalf("after the first exit: %+v", cs)
	}
	if last.Message != "hello\nworld\n" || last.ContainerID == "" || last.ContainerID == cs.ContainerID {
		t.Errorf("last state %+v: want the log as message and the previous run's ID", last)
	}
	// Later exits wait 10s, 20s, 40s, 40s.
	for i, want := range []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 40 * time.Second} {
		now = now.Add(crashRunFor)
		retry := step(t, p, now, prep)
		cs = p.Status.ContainerStatuses[0]
		w := cs.State.Waiting
		if w == nil || w.Reason != "CrashLoopBackOff" || retry != want {
			t.Fatalf("exit %d: state %+v, retry %v; want CrashLoopBackOff for %v", i+2, cs.State, retry, want)
		}
		msg := "back-off " + want.String() + " restarting failed container=a pod=p_ns(u)"
		if w.Message != msg {
			t.Errorf("message %q, want %q", w.Message, msg)
		}
		if p.Status.Phase != v1.PodRunning || cs.Ready {
			t.Errorf("phase %s ready %t during back-off", p.Status.Phase, cs.Ready)
		}
		if step(t, p, now.Add(want/2), prep); p.Status.ContainerStatuses[0].State.Waiting == nil {
			t.Fatalf("restarted after half the back-off")
		}
		now = now.Add(want)
		step(t, p, now, prep)
		if cs := p.Status.ContainerStatuses[0]; cs.State.Running == nil || cs.RestartCount != int32(i+2) {
			t.Fatalf("after back-off %v: %+v, want running with %d restarts", want, cs, i+2)
		}
	}
	evs := kubeletEvents(p, &v1.PodStatus{ContainerStatuses: []v1.ContainerStatus{{Name: "a", State: v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}})
	if len(evs) != 1 || evs[0].reason != "BackOff" || evs[0].eventType != v1.EventTypeWarning {
		t.Errorf("events %+v, want one Warning BackOff", evs)
	}
}

func TestOOMKilled(t *testing.T) {
	p := crashingPod(v1.RestartPolicyAlways, "app:oomkilled")
	now := time.Now()
	step(t, p, now, nil)
	step(t, p, now.Add(crashRunFor), nil)
	last := p.Status.ContainerStatuses[0].LastTerminationState.Terminated
	if last == nil || last.Reason != "OOMKilled" || last.ExitCode != 137 {
		t.Fatalf("last state %+v, want OOMKilled 137", last)
	}
}

func TestCrashWithoutRestartFails(t *testing.T) {
	p := crashingPod(v1.RestartPolicyNever, "app:crashloop")
	p.Spec.Containers[0].TerminationMessagePolicy = v1.TerminationMessageReadFile
	now := time.Now()
	step(t, p, now, map[string]prepared{"a": {log: []string{"x"}}})
	retry := step(t, p, now.Add(crashRunFor), map[string]prepared{"a": {log: []string{"x"}}})
	term := p.Status.ContainerStatuses[0].State.Terminated
	if p.Status.Phase != v1.PodFailed || term == nil || term.ExitCode != 1 || retry != 0 {
		t.Fatalf("phase %s state %+v retry %v; want Failed, exit 1, no retry", p.Status.Phase, term, retry)
	}
	if term.Message != "" {
		t.Errorf("message %q without FallbackToLogsOnError", term.Message)
	}
}

func TestConfigErrorWaits(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "nginx")
	prep := map[string]prepared{"a": {configErr: `secret "db" not found`}}
	retry := step(t, p, time.Now(), prep)
	w := p.Status.ContainerStatuses[0].State.Waiting
	if p.Status.Phase != v1.PodPending || w == nil || w.Reason != "CreateContainerConfigError" || w.Message != `secret "db" not found` {
		t.Fatalf("phase %s state %+v", p.Status.Phase, p.Status.ContainerStatuses[0].State)
	}
	if retry != configRetry {
		t.Errorf("retry %v, want %v", retry, configRetry)
	}
	evs := kubeletEvents(p, &p.Status)
	if len(evs) != 1 || evs[0].reason != "Failed" || evs[0].note != `Error: secret "db" not found` || evs[0].eventType != v1.EventTypeWarning {
		t.Errorf("events %+v", evs)
	}
	// Once the Secret exists the container starts.
	step(t, p, time.Now(), nil)
	if cs := p.Status.ContainerStatuses[0]; cs.State.Running == nil || p.Status.Phase != v1.PodRunning {
		t.Errorf("after the Secret appeared: %+v", cs.State)
	}
}

func TestPullEvents(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "nginx:doesnotexist")
	step(t, p, time.Now(), nil)
	var got []string
	for _, e := range kubeletEvents(p, &p.Status) {
		got = append(got, e.eventType+" "+e.reason+": "+e.note)
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{`Normal Pulling: Pulling image "nginx:doesnotexist"`, "Warning Failed: Error: ErrImagePull", `Normal BackOff: Back-off pulling image "nginx:doesnotexist"`} {
		if !strings.Contains(joined, want) {
			t.Errorf("events lack %q:\n%s", want, joined)
		}
	}
}

// An image name the kubelet cannot parse leaves the container waiting
// with InvalidImageName and the kubelet's message and events; a valid name
// with upper case in its tag still runs.
func TestInvalidImageName(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "registry.example/Web:1")
	step(t, p, time.Now(), nil)
	w := p.Status.ContainerStatuses[0].State.Waiting
	want := `Failed to apply default image tag "registry.example/Web:1": couldn't parse image name "registry.example/Web:1": invalid reference format: repository name (Web) must be lowercase`
	if p.Status.Phase != v1.PodPending || w == nil || w.Reason != "InvalidImageName" || w.Message != want {
		t.Fatalf("phase %s, state %+v; want Pending, waiting InvalidImageName: %s", p.Status.Phase, p.Status.ContainerStatuses[0].State, want)
	}
	var got []string
	for _, e := range kubeletEvents(p, &p.Status) {
		got = append(got, e.eventType+" "+e.reason+": "+e.note)
	}
	if joined := strings.Join(got, "\n"); joined != "Warning InspectFailed: "+want+"\nWarning Failed: Error: InvalidImageName" {
		t.Errorf("events:\n%s", joined)
	}
	if !pullable("registry.example/web:V1") || pullable("registry.example/web::1") {
		t.Error("pullable disagrees with the kubelet's parser")
	}
}

// objects is an objectReader over fixed Secrets and ConfigMaps.
type objects struct {
	secrets    map[string]map[string][]byte
	configMaps map[string]map[string]string
}

func (o objects) secret(_ context.Context, _, name string) (map[string][]byte, error) {
	if s, ok := o.secrets[name]; ok {
		return s, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
}

func (o objects) configMap(_ context.Context, _, name string) (map[string]string, error) {
	if cm, ok := o.configMaps[name]; ok {
		return cm, nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, name)
}

func TestContainerEnvAndLog(t *testing.T) {
	r := objects{
		secrets:    map[string]map[string][]byte{"db": {"password": []byte("s3cret")}},
		configMaps: map[string]map[string]string{"cfg": {"mode": "fast"}},
	}
	p := pod(v1.RestartPolicyAlways, "app:crashloop")
	p.Namespace = "ns"
	optional := true
	c := v1.Container{
		Name:    "a",
		Command: []string{"/bin/app"},
		Args:    []string{"--password=$(PASSWORD)", "--mode=$(MODE)", "$(GREETING)", "$$(PASSWORD)", "$(UNSET)"},
		Env: []v1.EnvVar{
			{Name: "PASSWORD", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "db"}, Key: "password"}}},
			{Name: "MODE", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Key: "mode"}}},
			{Name: "GREETING", Value: "hi $(MODE)"},
			{Name: "GONE", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, Key: "k", Optional: &optional}}},
		},
	}
	env, err := containerEnv(context.Background(), r, p, c)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(containerLog(c, env), "\n")
	want := "/bin/app\n--password=s3cret\n--mode=fast\nhi fast\n$(PASSWORD)\n$(UNSET)"
	if got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	for _, tc := range []struct {
		env  v1.EnvVar
		from []v1.EnvFromSource
		want string
	}{
		{env: v1.EnvVar{Name: "X", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "nope"}, Key: "k"}}},
			want: `secret "nope" not found`},
		{env: v1.EnvVar{Name: "X", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "db"}, Key: "user"}}},
			want: "couldn't find key user in Secret ns/db"},
		{env: v1.EnvVar{Name: "X", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, Key: "size"}}},
			want: "couldn't find key size in ConfigMap ns/cfg"},
		{from: []v1.EnvFromSource{{SecretRef: &v1.SecretEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "nope"}}}},
			want: `secret "nope" not found`},
	} {
		c := v1.Container{Name: "a", EnvFrom: tc.from}
		if tc.env.Name != "" {
			c.Env = []v1.EnvVar{tc.env}
		}
		_, err := containerEnv(context.Background(), r, p, c)
		var config configError
		if !errors.As(err, &config) || err.Error() != tc.want {
			t.Errorf("error %v, want configError %q", err, tc.want)
		}
	}
}

func TestUnschedulable(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"kubernetes.io/os": "linux"}}, Status: nodeStatus(10250)}
	p := pod(v1.RestartPolicyAlways, "nginx")
	if msg := unschedulable(p, node); msg != "" {
		t.Errorf("a pod without requests: %q", msg)
	}
	p.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("100"), v1.ResourceMemory: resource.MustParse("1Ti")}
	want := "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
	if msg := unschedulable(p, node); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	p.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("16")}
	if msg := unschedulable(p, node); msg != "" {
		t.Errorf("a pod asking exactly the allocatable: %q", msg)
	}
	p.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	if msg := unschedulable(p, node); !strings.Contains(msg, "1 node(s) didn't match Pod's node affinity/selector") {
		t.Errorf("selector: %q", msg)
	}
}

func TestLogInstance(t *testing.T) {
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	running := &v1.ContainerStatus{State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: metav1.NewTime(started)}}}
	if _, err := logInstance(running, "a", "p", true); err == nil || err.Error() != `previous terminated container "a" in pod "p" not found` {
		t.Errorf("previous of a first run: %v", err)
	}
	if at, err := logInstance(running, "a", "p", false); err != nil || !at.Equal(started) {
		t.Errorf("current: %v %v", at, err)
	}
	pulling := &v1.ContainerStatus{State: pullBackOff("x:doesnotexist")}
	if _, err := logInstance(pulling, "a", "p", false); err == nil || !strings.Contains(err.Error(), "trying and failing to pull image") {
		t.Errorf("pulling: %v", err)
	}
	lr := &logRequest{tailLines: 2, limitBytes: -1, timestamps: true}
	got := string(renderLog([]string{"one", "two", "three"}, started, lr))
	if got != "2026-01-02T03:04:05Z two\n2026-01-02T03:04:05Z three\n" {
		t.Errorf("rendered %q", got)
	}
}

func TestInitContainerCrashLoops(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "nginx")
	p.Namespace = "ns"
	p.Spec.InitContainers = []v1.Container{{Name: "init", Image: "migrate:crashloop"}}
	now := time.Now()
	step(t, p, now, nil)
	step(t, p, now.Add(crashRunFor), nil)
	step(t, p, now.Add(2*crashRunFor), nil)
	init := p.Status.InitContainerStatuses[0]
	if w := init.State.Waiting; w == nil || w.Reason != "CrashLoopBackOff" || init.RestartCount != 1 {
		t.Fatalf("init container %+v, want CrashLoopBackOff after a restart", init)
	}
	if p.Status.Phase != v1.PodPending || p.Status.ContainerStatuses[0].State.Waiting == nil {
		t.Errorf("phase %s, main container %+v: want Pending, waiting", p.Status.Phase, p.Status.ContainerStatuses[0].State)
	}
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodInitialized && c.Status != v1.ConditionFalse {
			t.Errorf("Initialized %s", c.Status)
		}
	}
}
