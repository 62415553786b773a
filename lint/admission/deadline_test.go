package admission

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/manifest"
)

// costlyPolicy is a policy whose one validation, over a literal list,
// costs a few hundred thousand CEL cost units per object: under the API
// server's per-expression limit, so it is evaluated in full.
const costlyPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: costly}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE"]
        resources: ["configmaps"]
  validations:
    - expression: "%[1]s.all(i, %[1]s.all(j, i + j >= 0))"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: costly}
spec:
  policyName: costly
  validationActions: [Deny]
`

// costlySet is the costly policy over a list of size elements (size^2
// iterations) and n ConfigMaps for it to judge.
func costlySet(t *testing.T, size, n int) (*Set, []*manifest.Object) {
	t.Helper()
	list := make([]string, size)
	for i := range list {
		list[i] = fmt.Sprint(i)
	}
	pol, probs := manifest.Parse("policy.yaml", []byte(fmt.Sprintf(costlyPolicy, "["+strings.Join(list, ",")+"]")))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	set, probs := Load(pol, Options{})
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d, namespace: shop}\ndata: {a: b}\n", i)
	}
	objs, probs := manifest.Parse("objects.yaml", []byte(b.String()))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	return set, objs
}

// Policy evaluation shares the run's context: cancelled part way through
// many objects, it stops with an error naming the object, the policy and
// the cause, and judges nothing more.
func TestCheckContextStops(t *testing.T) {
	set, objs := costlySet(t, 10, 200)
	if vs, err := set.CheckContext(context.Background(), objs[0]); err != nil || len(vs) != 1 || vs[0].Result != Pass {
		t.Fatalf("the costly policy on one object: %v %+v (want one pass)", err, vs)
	}
	cause := errors.New("interrupted by SIGTERM")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	judged := 0
	var err error
	for i, o := range objs {
		if i == 50 {
			cancel(cause)
		}
		if _, err = set.CheckContext(ctx, o); err != nil {
			break
		}
		judged++
	}
	if judged != 50 || !errors.Is(err, cause) {
		t.Fatalf("judged %d objects, then %v; want 50, then the cause", judged, err)
	}
	want := "policy evaluation stopped at configmap/cm-50 (objects.yaml), ValidatingAdmissionPolicy costly: interrupted by SIGTERM"
	if err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
}

// A deadline that passes during an evaluation (of 160,000 iterations,
// far longer than 10 ms) ends it: the CEL interrupt check sees the
// context, and a cut evaluation gives no verdict, only the error.
func TestCheckContextDeadline(t *testing.T) {
	set, objs := costlySet(t, 400, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	vs, err := set.CheckContext(ctx, objs[0])
	if !errors.Is(err, context.DeadlineExceeded) || vs != nil || !strings.Contains(err.Error(), "policy evaluation stopped at configmap/cm-0") {
		t.Fatalf("after the deadline: %v, %d verdicts", err, len(vs))
	}
}
