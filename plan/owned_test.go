package plan

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// A Service as the server keeps it after kubeplan applied port 80 and a
// clusterIP: defaults (sessionAffinity, protocol, clusterIPs, type) and
// another manager's annotation are not kubeplan's.
const ownedService = `
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: store
  uid: 1234
  annotations: {by-hand: "yes"}
  labels: {app: api}
  finalizers: [a, b]
  managedFields:
  - manager: kubeplan
    operation: Apply
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata: {f:labels: {f:app: {}}, f:finalizers: {v:"a": {}}}
      f:spec:
        f:clusterIP: {}
        f:ports:
          k:{"port":80,"protocol":"TCP"}: {.: {}, f:port: {}, f:targetPort: {}}
  - manager: kubectl-annotate
    operation: Update
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {f:metadata: {f:annotations: {f:by-hand: {}}}}
spec:
  clusterIP: 10.0.0.12
  clusterIPs: [10.0.0.12]
  sessionAffinity: None
  type: ClusterIP
  ports:
  - {port: 80, protocol: TCP, targetPort: 8080}
  - {port: 81, protocol: TCP, targetPort: 81}
status: {loadBalancer: {}}
`

func TestOwnedPart(t *testing.T) {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(ownedService), &obj); err != nil {
		t.Fatal(err)
	}
	live := &unstructured.Unstructured{Object: obj}
	got, ok := ownedPart(live, "kubeplan")
	if !ok {
		t.Fatal("no part owned by kubeplan")
	}
	b, _ := yaml.Marshal(got)
	want := `apiVersion: v1
kind: Service
metadata:
  finalizers:
  - a
  labels:
    app: api
  name: api
  namespace: store
spec:
  clusterIP: 10.0.0.12
  ports:
  - port: 80
    targetPort: 8080
`
	if string(b) != want {
		t.Errorf("owned part:\n%s\nwant:\n%s", b, want)
	}
	if _, ok := ownedPart(live, "kubectl-annotate"); ok {
		t.Error("an Update entry counts as applied")
	}
	if _, ok := ownedPart(live, "someone"); ok {
		t.Error("a manager without an entry owns something")
	}

	// The replace diff shows the change, not the server's defaults as removed.
	manifest := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "api", "namespace": "store", "labels": map[string]any{"app": "api"}, "finalizers": []any{"a"}},
		"spec": map[string]any{"clusterIP": "10.0.0.99", "ports": []any{map[string]any{"port": int64(80), "targetPort": int64(8080)}}}}
	c, err := replacement(Change{Ref: Ref{Kind: "Service", Name: "api"}}, live, &unstructured.Unstructured{Object: manifest}, "spec.clusterIPs[0] is immutable", "kubeplan")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Diff, "-  clusterIP: 10.0.0.12\n+  clusterIP: 10.0.0.99") || strings.Contains(c.Diff, "sessionAffinity") || strings.Contains(c.Diff, "by-hand") {
		t.Errorf("replace diff:\n%s", c.Diff)
	}
}
