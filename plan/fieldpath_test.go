package plan

import (
	"errors"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func TestParseFieldPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []pathSeg
	}{
		{".spec.replicas", []pathSeg{{field: "spec"}, {field: "replicas"}}},
		{"spec.replicas", []pathSeg{{field: "spec"}, {field: "replicas"}}},
		{`.spec.containers[name="shop"].image`, []pathSeg{{field: "spec"}, {field: "containers"}, {keys: []pathKey{{"name", "shop"}}}, {field: "image"}}},
		{`.ports[containerPort=80,protocol="TCP"].name`, []pathSeg{{field: "ports"}, {keys: []pathKey{{"containerPort", int64(80)}, {"protocol", "TCP"}}}, {field: "name"}}},
		{`.finalizers[="a,b]\"c"]`, []pathSeg{{field: "finalizers"}, {value: `a,b]"c`, hasValue: true}}},
		{`.args[2]`, []pathSeg{{field: "args"}, {index: 2, hasIndex: true}}},
		{`.x[k=1.5,b=true,n=null]`, []pathSeg{{field: "x"}, {keys: []pathKey{{"k", 1.5}, {"b", true}, {"n", nil}}}}},
	} {
		got, err := parseFieldPath(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{`.x[name="a`, `.x[name=]`, `.x[=1`, `.x[novalue]`, `.x[k=1;]`} {
		if _, err := parseFieldPath(bad); err == nil {
			t.Errorf("%s: parsed, want an error", bad)
		}
	}
}

const lookupDoc = `
metadata:
  annotations: {kubeplan.dev/prune: disabled}
  finalizers: [a, "x,y"]
spec:
  containers:
  - name: side
    image: busybox
  - name: shop
    image: shop:2
    args: [--a, --b]
    ports:
    - containerPort: 80
      name: http
    - containerPort: 80
      protocol: UDP
      name: dns
    env:
    - name: MODE
      value: fast
`

func TestLookupPath(t *testing.T) {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(lookupDoc), &obj); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]any{
		`.spec.containers[name="shop"].image`:                                       "shop:2",
		`.spec.containers[name="side"].image`:                                       "busybox",
		`.spec.containers[name="shop"].ports[containerPort=80,protocol="TCP"].name`: "http", // protocol left to its default
		`.spec.containers[name="shop"].ports[containerPort=80,protocol="UDP"].name`: "dns",
		`.spec.containers[name="shop"].env[name="MODE"].value`:                      "fast",
		`.spec.containers[name="shop"].args[1]`:                                     "--b",
		`.metadata.finalizers[="x,y"]`:                                              "x,y",
		`.metadata.finalizers[value="a"]`:                                           "a",
		`.metadata.annotations.kubeplan.dev/prune`:                                  "disabled",
	} {
		p, err := parseFieldPath(path)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := lookupPath(obj, p)
		if !ok || got != want {
			t.Errorf("%s = %v, %v; want %v", path, got, ok, want)
		}
	}
	for _, path := range []string{
		`.spec.containers[name="gone"].image`,
		`.spec.containers[name="shop"].ports[containerPort=81,protocol="TCP"].name`,
		`.spec.containers[name="shop"].ports[containerPort=80,protocol="SCTP"].name`,
		`.spec.containers[name="shop"].args[5]`,
		`.metadata.finalizers[="z"]`,
		`.spec.replicas`,
	} {
		p, _ := parseFieldPath(path)
		if got, ok := lookupPath(obj, p); ok {
			t.Errorf("%s = %v, want not found", path, got)
		}
	}
}

func conflictErr(fields ...string) error {
	st := &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Reason: metav1.StatusReasonConflict, Code: 409,
		Details: &metav1.StatusDetails{}}}
	for _, f := range fields {
		st.ErrStatus.Details.Causes = append(st.ErrStatus.Details.Causes, metav1.StatusCause{
			Type: metav1.CauseTypeFieldManagerConflict, Field: f, Message: `conflict with "kubectl-set" using apps/v1`})
	}
	return st
}

func TestDriftInLists(t *testing.T) {
	var liveObj, wantObj map[string]any
	_ = yaml.Unmarshal([]byte(lookupDoc), &liveObj)
	_ = yaml.Unmarshal([]byte(`spec: {containers: [{name: shop, image: "shop:1", ports: [{containerPort: 80, name: web}]}]}`), &wantObj)
	err := conflictErr(`.spec.containers[name="shop"].image`, `.spec.containers[name="shop"].ports[containerPort=80,protocol="TCP"].name`)
	got := drift(err, &unstructured.Unstructured{Object: liveObj}, &unstructured.Unstructured{Object: wantObj})
	want := []Drift{
		{Field: `spec.containers[name="shop"].image`, Live: "shop:2", Want: "shop:1", Manager: "kubectl-set"},
		{Field: `spec.containers[name="shop"].ports[containerPort=80,protocol="TCP"].name`, Live: "http", Want: "web", Manager: "kubectl-set"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("drift:\n got %+v\nwant %+v", got, want)
	}
}

func TestDriftSecretMasked(t *testing.T) {
	live := &unstructured.Unstructured{Object: map[string]any{"kind": "Secret", "data": map[string]any{"k": "bGl2ZQ=="}}}
	want := &unstructured.Unstructured{Object: map[string]any{"kind": "Secret", "data": map[string]any{"k": "Z2l0"}}}
	got := drift(conflictErr(".data.k"), live, want)
	if len(got) != 1 || got[0].Live != "***" || got[0].Want != "***" {
		t.Errorf("secret drift %+v, want masked values", got)
	}
	if !errors.As(conflictErr(), new(apierrors.APIStatus)) {
		t.Fatal("conflictErr is not an APIStatus")
	}
}
