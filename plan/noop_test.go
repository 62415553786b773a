package plan

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// fieldsWeb is what kube-apiserver 1.37 recorded for kubeplan's apply of
// wantWeb (read back from a testcluster).
const fieldsWeb = `{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}},"k:{\"name\":\"log\"}":{".":{},"f:image":{},"f:name":{}}},"f:volumes":{"k:{\"name\":\"x\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}}}}`

const wantWeb = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: store, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.30
        ports: [{containerPort: 80}]
      - {name: log, image: busybox}
      volumes: [{name: x, emptyDir: {}}]
`

// liveWeb is wantWeb as the server keeps it: defaults added, the port's
// protocol filled in, status and another manager's fields.
const liveWeb = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: store, labels: {app: web, extra: by-hand}, resourceVersion: "7", uid: u}
spec:
  replicas: 2
  revisionHistoryLimit: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.30
        imagePullPolicy: IfNotPresent
        ports: [{containerPort: 80, protocol: TCP}]
      - {name: log, image: busybox}
      volumes: [{name: x, emptyDir: {}}]
status: {replicas: 2}
`

func obj(t *testing.T, y string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(y), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func liveWith(t *testing.T, y string, entries ...metav1.ManagedFieldsEntry) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: obj(t, y)}
	u.SetManagedFields(entries)
	return u
}

func entry(manager, apiVersion, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationApply, APIVersion: apiVersion,
		FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
}

func TestAlreadyApplied(t *testing.T) {
	ours := entry("kubeplan", "apps/v1", fieldsWeb)
	cases := []struct {
		name string
		want string
		live *unstructured.Unstructured
		ok   bool
	}{
		{"applied as is", wantWeb, liveWith(t, liveWeb, ours), true},
		{"not ours", wantWeb, liveWith(t, liveWeb, entry("kubectl", "apps/v1", fieldsWeb)), false},
		{"ours by update only", wantWeb, liveWith(t, liveWeb, metav1.ManagedFieldsEntry{Manager: "kubeplan", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fieldsWeb)}}), false},
		{"other apiVersion", wantWeb, liveWith(t, liveWeb, entry("kubeplan", "apps/v1beta2", fieldsWeb)), false},
		{"absent", wantWeb, nil, false},
		{"value changed in git", replace(t, wantWeb, "replicas: 2", "replicas: 3"), liveWith(t, liveWeb, ours), false},
		{"value changed live", wantWeb, liveWith(t, replace(t, liveWeb, "image: nginx:1.30", "image: nginx:1.31"), ours), false},
		{"label dropped from git", replace(t, wantWeb, "labels: {app: web}}\nspec", "labels: {}}\nspec"), liveWith(t, liveWeb, ours), false},
		{"container dropped from git", replace(t, wantWeb, "      - {name: log, image: busybox}\n", ""), liveWith(t, liveWeb, ours), false},
		{"container added in git", replace(t, wantWeb, "      - {name: log, image: busybox}\n", "      - {name: log, image: busybox}\n      - {name: new, image: busybox}\n"), liveWith(t, liveWeb, ours), false},
		{"containers reordered in git", replace(t, replace(t, wantWeb, "      - {name: log, image: busybox}\n", ""), "      containers:\n", "      containers:\n      - {name: log, image: busybox}\n"), liveWith(t, liveWeb, ours), false},
		{"selector changed (atomic)", replace(t, wantWeb, "selector: {matchLabels: {app: web}}", "selector: {matchLabels: {app: web, v: \"2\"}}"), liveWith(t, liveWeb, ours), false},
		{"port protocol set to another value", replace(t, wantWeb, "{containerPort: 80}", "{containerPort: 80, protocol: UDP}"), liveWith(t, liveWeb, ours), false},
		{"number forms agree", replace(t, wantWeb, "replicas: 2", "replicas: 2.0"), liveWith(t, liveWeb, ours), true},
		{"null in git", replace(t, wantWeb, "replicas: 2", "replicas: null"), liveWith(t, liveWeb, ours), false},
		{"two entries of ours", wantWeb, liveWith(t, liveWeb, ours, entry("kubeplan", "apps/v1", fieldsWeb)), false},
		{"set-like list", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, finalizers: [a]}\n",
			liveWith(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, finalizers: [a]}\n", entry("kubeplan", "v1", `{"f:metadata":{"f:finalizers":{".":{},"v:\"a\"":{}}}}`)), false},
		{"only name and namespace", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: n}\ndata: {a: b}\n",
			liveWith(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: n}\ndata: {a: b}\n", entry("kubeplan", "v1", `{"f:data":{".":{},"f:a":{}}}`)), true},
		{"garbage fields", wantWeb, liveWith(t, liveWeb, entry("kubeplan", "apps/v1", `not json`)), false},
	}
	for _, c := range cases {
		if got := alreadyApplied(obj(t, c.want), c.live, "kubeplan"); got != c.ok {
			t.Errorf("%s: alreadyApplied = %v, want %v", c.name, got, c.ok)
		}
	}
}

func replace(t *testing.T, s, from, to string) string {
	t.Helper()
	if !strings.Contains(s, from) {
		t.Fatalf("%q not found", from)
	}
	return strings.Replace(s, from, to, 1)
}
