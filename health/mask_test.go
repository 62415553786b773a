package health

import (
	"context"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthTestSecretValues stands in for plan.SecretValues (health does not
// import plan): the stringData values.
func healthTestSecretValues(obj map[string]any) []string {
	var out []string
	sd, _, _ := unstructured.NestedStringMap(obj, "stringData")
	for _, v := range sd {
		out = append(out, v)
	}
	return out
}

// The diagnosis masks the set's Secret values and those of the Secrets the
// pods reference in events, messages and log lines, and strips control
// characters.
func TestDiagnosisMasks(t *testing.T) {
	const setValue, podValue = "canary-set-9f3b2c", "canary-pod-7a1e4d"
	secret := healthObj(t, `apiVersion: v1
kind: Secret
metadata: {name: db, namespace: ns}
stringData: {password: `+podValue+`}
`)
	events := []runtime.Object{
		healthObj(t, `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e1, namespace: ns, creationTimestamp: "2026-12-02T01:00:00Z"}
type: Warning
reason: BackOff
note: "Back-off restarting failed container web: password=`+podValue+`"
regarding: {kind: Pod, name: web-7d9c-abcde, namespace: ns}
`),
		healthObj(t, `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e2, namespace: ns, creationTimestamp: "2026-12-02T01:00:05Z"}
type: Warning
reason: BackOff
note: "Back-off restarting failed container web: password=`+podValue+`"
regarding: {kind: Pod, name: web-7d9c-abcde, namespace: ns}
series: {count: 4, lastObservedTime: "2026-12-02T01:00:06Z"}
`),
		healthObj(t, `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e3, namespace: ns, creationTimestamp: "2026-12-02T01:00:01Z"}
type: Normal
reason: Pulled
note: "`+setValue+`"
regarding: {kind: Pod, name: web-7d9c-abcde, namespace: ns}
`),
		healthObj(t, `apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e4, namespace: ns, creationTimestamp: "2026-12-02T01:00:02Z"}
type: Warning
reason: FailedCreate
regarding: {kind: ReplicaSet, name: web-7d9c, namespace: ns}
`),
	}
	events[3].(*unstructured.Unstructured).Object["note"] = "token " + setValue + "\x1b[31m"
	scheme := runtime.NewScheme()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme, map[schema.GroupVersionResource]string{
		healthEventsGVR: "EventList", healthSecretsGVR: "SecretList",
	}, append(events, secret)...)
	d := newDiagnoser(&kube.Client{Dynamic: dyn}, WaitOptions{Secrets: []string{setValue}, SecretValues: healthTestSecretValues})

	pod := healthObj(t, strings.Replace(ffCrashLoop, "  containers: [{name: web, image: web:1}]",
		"  containers: [{name: web, image: web:1, env: [{name: PW, valueFrom: {secretKeyRef: {name: db, key: password}}}]}]", 1))
	cs, _, _ := unstructured.NestedSlice(pod.Object, "status", "containerStatuses")
	m := cs[0].(map[string]any)
	unstructured.SetNestedField(m, "panic: password "+podValue, "lastState", "terminated", "message")
	unstructured.SetNestedSlice(pod.Object, cs, "status", "containerStatuses")
	pod.Object["metadata"].(map[string]any)["ownerReferences"] = []any{map[string]any{"kind": "ReplicaSet", "name": "web-7d9c", "apiVersion": "apps/v1", "uid": "u"}}

	pods := []unstructured.Unstructured{*pod}
	diag := &Diagnosis{Causes: causesOf(pods)}
	if err := d.readSecret(context.Background(), "ns", "db"); err != nil {
		t.Fatal(err)
	}
	diag.Events = d.eventsOf(context.Background(), "ns", map[string]bool{"Deployment/web": true, "Pod/web-7d9c-abcde": true, "ReplicaSet/web-7d9c": true})
	log := []string{"starting", "connecting with " + podValue + " and " + setValue, "\x1b[2Jdone"}
	var masked []string
	for _, l := range log {
		masked = append(masked, d.mask.text(l))
	}
	all := strings.Join(masked, "\n")
	for _, e := range diag.Events {
		all += "\n" + e.Note
	}
	all += "\n" + d.mask.text(diag.Causes[0].TerminationMessage)
	if strings.Contains(all, podValue) || strings.Contains(all, setValue) || strings.Contains(all, "\x1b") {
		t.Fatalf("not masked:\n%s", all)
	}
	if masked[1] != "connecting with *** and ***" || masked[2] != "[2Jdone" {
		t.Errorf("log = %q", masked)
	}
	// Warning only, deduplicated with counts (1 + 4), oldest first.
	if len(diag.Events) != 2 || diag.Events[0].Object != "ReplicaSet/web-7d9c" || diag.Events[0].Note != "token ***[31m" ||
		diag.Events[1].Reason != "BackOff" || diag.Events[1].Count != 5 || diag.Events[1].Note != "Back-off restarting failed container web: password=***" {
		t.Errorf("events = %+v", diag.Events)
	}
}

// Without list on events, the diagnosis says which permission is missing
// and still reports the causes it read from the pods.
func TestDiagnosisMissingEventsPermission(t *testing.T) {
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		healthEventsGVR: "EventList", healthSecretsGVR: "SecretList",
	})
	dyn.PrependReactor("list", "events", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "events.k8s.io", Resource: "events"}, "", errors.New("no"))
	})
	d := newDiagnoser(&kube.Client{Dynamic: dyn}, WaitOptions{})
	diag := d.diagnose(context.Background(), "ns", []string{"Deployment/web"}, ffPods(t, ffImagePullBackOff, ffImagePullBackOff))
	if len(diag.Causes) != 1 || diag.Causes[0].Reason != "ImagePullBackOff" || diag.Causes[0].Pods != 2 || diag.Causes[0].Container != "web" {
		t.Errorf("causes = %+v", diag.Causes)
	}
	if len(diag.Missing) != 1 || diag.Missing[0] != "missing permission: list events (events.k8s.io)" || len(diag.Events) != 0 {
		t.Errorf("missing = %q, events = %+v", diag.Missing, diag.Events)
	}
}
