package semantic_test

import (
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/lint/semantic"
)

// The path arena is reused by the next object's checks: the violations an
// earlier Check returned keep their paths.
func TestViolationPathsOutliveTheArena(t *testing.T) {
	bad := object(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: -1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 70000}]
`)
	other := object(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: other}
spec:
  replicas: 2
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: other}}
    spec:
      containers:
      - {name: a, image: x, env: [{name: A, value: "1"}, {name: B, value: "2"}], ports: [{containerPort: 80}]}
      - {name: b, image: y, volumeMounts: [{name: v, mountPath: /v}]}
      volumes: [{name: v, emptyDir: {}}]
`)
	vs := semantic.Check(bad)
	if len(vs) < 2 {
		t.Fatalf("want at least 2 violations, got %v", vs)
	}
	want := make([][]string, len(vs))
	for i, v := range vs {
		want[i] = slices.Clone(v.Path)
	}
	for range 20 {
		semantic.Check(other)
	}
	for i, v := range vs {
		if !slices.Equal(v.Path, want[i]) {
			t.Errorf("violation %d's path became %q, was %q", i, v.Path, want[i])
		}
	}
}
