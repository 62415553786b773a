package health

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthOptionalPod is a crash-looping pod whose container reads three
// Secrets marked optional: true (env secretKeyRef, envFrom secretRef, a
// projected volume) and a fourth, optional and absent (a secret volume).
var healthOptionalPod = `apiVersion: v1
kind: Pod
metadata: {name: web-7d9c-abcde, namespace: ns, labels: {app: web}}
spec:
  containers:
  - name: web
    image: web:1
    env:
    - name: TOKEN
      valueFrom: {secretKeyRef: {name: opt-env, key: token, optional: true}}
    envFrom:
    - secretRef: {name: opt-from, optional: true}
  volumes:
  - name: certs
    projected:
      sources:
      - secret: {name: opt-vol, optional: true}
  - name: extra
    secret: {secretName: gone, optional: true}
` + ffCrashLoop[len(ffPodHead):]

// healthLogServer serves the pods/log of every pod as lines, on
// 127.0.0.1, and counts the reads.
func healthLogServer(t *testing.T, lines ...string) (*rest.Config, *atomic.Int32) {
	t.Helper()
	var reads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/log") {
			http.NotFound(w, r)
			return
		}
		reads.Add(1)
		fmt.Fprint(w, strings.Join(lines, "\n")+"\n")
	}))
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL}, &reads
}

// Secrets a pod references with optional: true are read for masking:
// when they exist, their values are masked in the log as any referenced
// Secret's; when one does not exist there is nothing to mask, and the log
// is not withheld.
func TestDiagnosisMasksOptionalSecrets(t *testing.T) {
	const envValue, fromValue, volValue = "canary-optenv-41c7", "canary-optfrom-8e2a", "canary-optvol-d09b"
	secret := func(name, value string) runtime.Object {
		return healthObj(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: "+name+", namespace: ns}\nstringData: {v: "+value+"}\n")
	}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		healthEventsGVR: "EventList", healthSecretsGVR: "SecretList",
	}, secret("opt-env", envValue), secret("opt-from", fromValue), secret("opt-vol", volValue))
	cfg, reads := healthLogServer(t, "token "+envValue, "from "+fromValue, "cert "+volValue, "fatal: exit")
	d := newDiagnoser(&kube.Client{Dynamic: dyn, Config: cfg}, WaitOptions{SecretValues: healthTestSecretValues})
	diag := d.diagnose(context.Background(), "ns", []string{"Deployment/web"}, ffPods(t, healthOptionalPod))
	if len(diag.Causes) != 1 || diag.Causes[0].Reason != "CrashLoopBackOff" {
		t.Fatalf("causes = %+v", diag.Causes)
	}
	c := diag.Causes[0]
	if c.LogNote != "" || reads.Load() != 1 {
		t.Fatalf("log note %q after %d reads: the absent optional Secret withheld the log", c.LogNote, reads.Load())
	}
	got := strings.Join(c.Log, "\n")
	if got != "token ***\nfrom ***\ncert ***\nfatal: exit" {
		t.Errorf("log:\n%s", got)
	}
}

// An optional Secret that cannot be read (forbidden) may hold a value the
// log prints: the log is withheld, and not read at all.
func TestDiagnosisWithholdsLogOfUnreadableOptionalSecret(t *testing.T) {
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		healthEventsGVR: "EventList", healthSecretsGVR: "SecretList",
	})
	dyn.PrependReactor("get", "secrets", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.(k8stesting.GetAction).GetName() == "opt-from" {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, "opt-from", errors.New("no"))
		}
		return false, nil, nil
	})
	cfg, reads := healthLogServer(t, "from canary-unread-5b3f")
	d := newDiagnoser(&kube.Client{Dynamic: dyn, Config: cfg}, WaitOptions{SecretValues: healthTestSecretValues})
	diag := d.diagnose(context.Background(), "ns", []string{"Deployment/web"}, []unstructured.Unstructured{*healthObj(t, healthOptionalPod)})
	if len(diag.Causes) != 1 || diag.Causes[0].Log != nil || reads.Load() != 0 ||
		diag.Causes[0].LogNote != "log withheld: cannot read Secret opt-from to mask its values" {
		t.Errorf("causes = %+v, %d log reads", diag.Causes, reads.Load())
	}
}
