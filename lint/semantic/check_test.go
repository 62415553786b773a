package semantic_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint/semantic"
	"github.com/kubeplan/kubeplan/manifest"
)

func object(t *testing.T, src string) *manifest.Object {
	t.Helper()
	objs, problems := manifest.Parse("in.yaml", []byte(src))
	if len(problems) > 0 || len(objs) != 1 {
		t.Fatalf("parse: %d objects, problems %v", len(objs), problems)
	}
	return objs[0]
}

// TestCheckViolations: Check returns what the server refuses, in the order
// found, with the path lint positions it at, the key flag, and the warning
// hint.
func TestCheckViolations(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []semantic.Violation
	}{
		{"valid deployment", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`, nil},
		{"selector misses the template", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: web, image: nginx}]}
`, []semantic.Violation{{Path: []string{"spec", "template", "metadata", "labels", "app"},
			Message: "spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`; give the template the labels spec.selector selects"}}},
		{"bad configmap key", `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data: {"a b": x}
`, []semantic.Violation{{Path: []string{"data", "a b"}, AtKey: true,
			Message: `data["a b"]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`}}},
		{"node port out of range is a warning", `apiVersion: v1
kind: Service
metadata: {name: s}
spec:
  type: NodePort
  ports: [{port: 80, nodePort: 70000}]
`, []semantic.Violation{{Path: []string{"spec", "ports", "0", "nodePort"}, Warning: true,
			Message: "spec.ports[0].nodePort: Invalid value: 70000: not in the node port range (30000-32767 by default); a dry-run accepts it but the create fails"}}},
		{"a kind without checks", `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {replicas: -1}
`, nil},
	} {
		got := semantic.Check(object(t, tc.src))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.name, got, tc.want)
		}
	}
}

func TestFieldPath(t *testing.T) {
	for path, want := range map[string]string{
		"spec|containers|0|image":           "spec.containers[0].image",
		"metadata|labels|app.kubernetes.io": `metadata.labels["app.kubernetes.io"]`,
		"data|a b":                          `data["a b"]`,
	} {
		if got := semantic.FieldPath(strings.Split(path, "|")); got != want {
			t.Errorf("FieldPath(%s) = %s, want %s", path, got, want)
		}
	}
}
