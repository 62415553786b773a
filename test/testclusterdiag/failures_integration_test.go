package testclusterdiag

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// canary is the Secret value a crash-looping container prints through $(PASSWORD).
const canary = "canary-7f3a9c-secret-value"

func clientFor(t *testing.T, kubeconfig string) (*kubernetes.Clientset, *rest.Config) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs, cfg
}

func container(image string, args ...string) corev1.Container {
	return corev1.Container{Name: "main", Image: image, Command: []string{"/app"}, Args: args}
}

func secretEnv(name, secret, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}}}
}

// TestIntegrationFailures creates a pod per failure class as the narrow edit
// identity and waits (at most 30 s) until each shows its failure, then reads
// logs and events the way kubeplan will.
func TestIntegrationFailures(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	client, _ := clientFor(t, c.Narrow(t, "edit", ns))
	ctx := context.Background()

	if _, err := client.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "app"},
		StringData: map[string]string{"password": canary},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crash := container("registry.example/app:crashloop", "--password=$(PASSWORD)", "starting $(MODE)", "$$(PASSWORD)")
	crash.Env = []corev1.EnvVar{secretEnv("PASSWORD", "app", "password"), {Name: "MODE", Value: "fast"}}
	crash.TerminationMessagePolicy = corev1.TerminationMessageFallbackToLogsOnError
	big := container("registry.example/app:v1")
	big.Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100")}
	noSecret := container("registry.example/app:v1")
	noSecret.Env = []corev1.EnvVar{secretEnv("TOKEN", "absent", "token")}
	noKey := container("registry.example/app:v1")
	noKey.Env = []corev1.EnvVar{secretEnv("TOKEN", "app", "token")}
	pods := map[string]corev1.Container{
		"crash":     crash,
		"oom":       container("registry.example/app:oomkilled", "allocating"),
		"big":       big,
		"no-secret": noSecret,
		"no-key":    noKey,
		"web":       container("registry.example/web:v1", "serve"),
	}
	created := time.Now()
	// A Job whose pod fails once (restartPolicy Never): the Job controller gives up.
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "migrate"}, Spec: batchv1.JobSpec{
		BackoffLimit: ptr(int32(0)),
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{container("registry.example/migrate:crashloop", "migrating")}}},
	}}
	if _, err := client.BatchV1().Jobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create job: %v", err)
	}
	for name, ctr := range pods {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.PodSpec{Containers: []corev1.Container{ctr}}}
		if _, err := client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create pod %s: %v", name, err)
		}
	}

	// Every pod shows its failure within 30 s of its creation.
	checks := map[string]func(*corev1.Pod) error{
		"crash": func(p *corev1.Pod) error {
			cs := p.Status.ContainerStatuses
			if len(cs) != 1 || cs[0].State.Waiting == nil || cs[0].State.Waiting.Reason != "CrashLoopBackOff" || cs[0].RestartCount < 1 {
				return fmt.Errorf("not in CrashLoopBackOff with restarts: %+v", cs)
			}
			// The first back-off is 10s; on a machine stalled for 10 s the check may see the second.
			msg := cs[0].State.Waiting.Message
			want := fmt.Sprintf("s restarting failed container=main pod=crash_%s(%s)", ns, p.UID)
			if msg != "back-off 10"+want && msg != "back-off 20"+want {
				return fmt.Errorf("message %q, want %q", msg, "back-off 10"+want)
			}
			last := cs[0].LastTerminationState.Terminated
			if last == nil || last.ExitCode != 1 || last.Reason != "Error" || !strings.Contains(last.Message, "--password="+canary) {
				return fmt.Errorf("last state %+v: want exit 1, Error, the log as message", last)
			}
			return nil
		},
		"oom": func(p *corev1.Pod) error {
			cs := p.Status.ContainerStatuses
			if len(cs) != 1 || cs[0].LastTerminationState.Terminated == nil || cs[0].LastTerminationState.Terminated.Reason != "OOMKilled" ||
				cs[0].LastTerminationState.Terminated.ExitCode != 137 || cs[0].RestartCount < 1 {
				return fmt.Errorf("no OOMKilled last state: %+v", cs)
			}
			return nil
		},
		"big": func(p *corev1.Pod) error {
			for _, cond := range p.Status.Conditions {
				if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse && cond.Reason == "Unschedulable" &&
					strings.HasPrefix(cond.Message, "0/1 nodes are available: 1 Insufficient cpu.") {
					if p.Status.Phase != corev1.PodPending || p.Spec.NodeName != "" {
						return fmt.Errorf("phase %s on node %q", p.Status.Phase, p.Spec.NodeName)
					}
					return nil
				}
			}
			return fmt.Errorf("not Unschedulable: %+v", p.Status.Conditions)
		},
		"no-secret": configError(`secret "absent" not found`),
		"no-key":    configError(fmt.Sprintf("couldn't find key token in Secret %s/app", ns)),
		"web": func(p *corev1.Pod) error {
			if p.Status.Phase != corev1.PodRunning {
				return fmt.Errorf("phase %s", p.Status.Phase)
			}
			return nil
		},
	}
	deadline := created.Add(30 * time.Second)
	for {
		j, err := client.BatchV1().Jobs(ns).Get(ctx, "migrate", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		failed := false
		for _, cond := range j.Status.Conditions {
			failed = failed || cond.Type == batchv1.JobFailed && cond.Status == corev1.ConditionTrue && cond.Reason == "BackoffLimitExceeded"
		}
		if failed && j.Status.Failed == 1 {
			t.Logf("job migrate: BackoffLimitExceeded after %s", time.Since(created).Round(100*time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job migrate: no BackoffLimitExceeded within 30 s: %+v", j.Status)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for name, check := range checks {
		var last error
		for {
			p, err := client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if last = check(p); last == nil {
				t.Logf("pod %s: shown after %s", name, time.Since(created).Round(100*time.Millisecond))
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("pod %s: within 30 s: %v", name, last)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}

	// Logs through pods/log: the args, one line each, $(VAR) expanded from a
	// Secret, $$ escaped. Read with Stream as kubectl does: DoRaw's error
	// would hide the kubelet's message behind "the server rejected our
	// request for an unknown reason".
	logs := func(pod string, opts *corev1.PodLogOptions) (string, error) {
		opts.Container = "main"
		r, err := client.CoreV1().Pods(ns).GetLogs(pod, opts).Stream(ctx)
		if err != nil {
			return "", err
		}
		defer r.Close()
		b, err := io.ReadAll(r)
		return string(b), err
	}
	want := "/app\n--password=" + canary + "\nstarting fast\n$(PASSWORD)\n"
	if got, err := logs("crash", &corev1.PodLogOptions{}); err != nil || got != want {
		t.Errorf("crash log: %q, %v; want %q", got, err, want)
	}
	if got, err := logs("crash", &corev1.PodLogOptions{Previous: true}); err != nil || got != want {
		t.Errorf("crash previous log: %q, %v; want %q", got, err, want)
	}
	tail := int64(2)
	if got, err := logs("crash", &corev1.PodLogOptions{TailLines: &tail, Timestamps: true}); err != nil ||
		!strings.HasSuffix(got, " starting fast\n"+got[:strings.Index(got, " ")]+" $(PASSWORD)\n") || strings.Count(got, "\n") != 2 || strings.Contains(got, canary) {
		t.Errorf("crash log tail 2 with timestamps: %q, %v", got, err)
	}
	if got, err := logs("web", &corev1.PodLogOptions{}); err != nil || got != "/app\nserve\n" {
		t.Errorf("web log: %q, %v", got, err)
	}
	if _, err := logs("web", &corev1.PodLogOptions{Previous: true}); !apierrors.IsBadRequest(err) ||
		err.Error() != `previous terminated container "main" in pod "web" not found` {
		t.Errorf("previous log of a container that never restarted: %v", err)
	}
	if _, err := logs("no-secret", &corev1.PodLogOptions{}); !apierrors.IsBadRequest(err) ||
		err.Error() != `container "main" in pod "no-secret" is waiting to start: CreateContainerConfigError` {
		t.Errorf("log of a container that cannot start: %v", err)
	}

	// Events through events.k8s.io/v1, as the edit identity may list them.
	wantEvents := []struct{ pod, reporter, typ, reason, note string }{
		{"big", "default-scheduler", "Warning", "FailedScheduling", "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{"no-secret", "kubelet", "Warning", "Failed", `Error: secret "absent" not found`},
		{"crash", "kubelet", "Warning", "BackOff", fmt.Sprintf("Back-off restarting failed container main in pod crash_%s(", ns)},
	}
	events, err := client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list events.k8s.io/v1 as edit: %v", err)
	}
	for _, w := range wantEvents {
		found := false
		for _, e := range events.Items {
			if e.Regarding.Kind == "Pod" && e.Regarding.Name == w.pod && e.ReportingController == w.reporter &&
				e.Type == w.typ && e.Reason == w.reason && strings.HasPrefix(e.Note, w.note) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s %s event from %s for pod %s with note %q among %d events", w.typ, w.reason, w.reporter, w.pod, w.note, len(events.Items))
		}
	}
}

func ptr[T any](v T) *T { return &v }

func configError(msg string) func(*corev1.Pod) error {
	return func(p *corev1.Pod) error {
		cs := p.Status.ContainerStatuses
		if len(cs) != 1 || cs[0].State.Waiting == nil || cs[0].State.Waiting.Reason != "CreateContainerConfigError" || cs[0].State.Waiting.Message != msg {
			return fmt.Errorf("not CreateContainerConfigError %q: %+v", msg, cs)
		}
		if p.Status.Phase != corev1.PodPending {
			return fmt.Errorf("phase %s", p.Status.Phase)
		}
		return nil
	}
}

// TestIntegrationKubeletAPIAnswersOnlyTheAPIServer connects to the simulated
// node's kubelet API directly, with a client certificate of the cluster's CA
// for another user, and without one: neither reads a container's log (which
// may hold a Secret's value).
func TestIntegrationKubeletAPIAnswersOnlyTheAPIServer(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	admin, _ := clientFor(t, c.AdminKubeconfig())
	ctx := context.Background()
	if _, err := admin.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "app"}, StringData: map[string]string{"password": canary},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ctr := container("registry.example/app:v1", "--password=$(PASSWORD)")
	ctr.Env = []corev1.EnvVar{secretEnv("PASSWORD", "app", "password")}
	if _, err := admin.CoreV1().Pods(ns).Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{ctr}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	node, err := admin.CoreV1().Nodes().Get(ctx, "testcluster-node", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	port := node.Status.DaemonEndpoints.KubeletEndpoint.Port
	if port == 0 {
		t.Fatal("node reports no kubelet port")
	}
	// The API server itself reads the log (so the pod is running and the path right).
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		b, err := admin.CoreV1().Pods(ns).GetLogs("web", &corev1.PodLogOptions{}).DoRaw(ctx)
		if err == nil && strings.Contains(string(b), canary) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("log through the API server: %q, %v", b, err)
		}
	}
	url := fmt.Sprintf("https://127.0.0.1:%d/containerLogs/%s/web/main", port, ns)

	_, userCfg := clientFor(t, c.User(t, "intruder"))
	withCert, err := rest.TransportFor(userCfg)
	if err != nil {
		t.Fatal(err)
	}
	userTLS, err := rest.TLSConfigFor(userCfg)
	if err != nil {
		t.Fatal(err)
	}
	noCertTLS := userTLS.Clone()
	noCertTLS.Certificates, noCertTLS.GetClientCertificate = nil, nil
	noCertTLS.ServerName = "127.0.0.1"
	for name, rt := range map[string]http.RoundTripper{
		"a client certificate of another user": withCert,
		"no client certificate":                &http.Transport{TLSClientConfig: noCertTLS},
	} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := rt.RoundTrip(req)
		if err != nil && name == "no client certificate" {
			t.Logf("%s: refused: %v", name, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want an answer 403 from the node", name, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || strings.Contains(string(body), canary) {
			t.Errorf("%s: %d %q, want 403 without the log", name, resp.StatusCode, body)
		}
		if name == "no client certificate" {
			t.Errorf("no client certificate: the TLS handshake succeeded")
		}
	}
}
