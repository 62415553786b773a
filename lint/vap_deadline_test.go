package lint

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// Policy evaluation shares the run's deadline: many objects times a
// costly policy (each evaluation 160,000 CEL iterations, under the API
// server's per-expression limit; minutes in all) stop at the deadline of
// the run's context with an error naming where, streamed and kept alike.
func TestPolicyEvaluationStopsAtTheDeadline(t *testing.T) {
	list := make([]string, 400)
	for i := range list {
		list[i] = fmt.Sprint(i)
	}
	l := "[" + strings.Join(list, ",") + "]"
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: admissionregistration.k8s.io/v1
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
    - expression: "%s.all(i, %s.all(j, i + j >= 0))"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: costly}
spec:
  policyName: costly
  validationActions: [Deny]
`, l, l)
	dir := t.TempDir()
	files := map[string]string{"policy.yaml": b.String()}
	for f := range 20 {
		var objs strings.Builder
		for i := range 10 {
			fmt.Fprintf(&objs, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d-%d, namespace: shop}\ndata: {a: b}\n", f, i)
		}
		files[fmt.Sprintf("objects-%02d.yaml", f)] = objs.String()
	}
	writeTree(t, dir, files)
	for _, keep := range []bool{false, true} {
		// Loading 21 small files takes milliseconds; judging 200 objects
		// takes minutes: the deadline passes while policies are evaluated.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, _, err := Check(Input{Paths: []string{dir}, KeepObjects: keep, Load: loader.Options{Context: ctx}}, Options{})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "policy evaluation stopped at configmap/cm-") ||
			!strings.Contains(err.Error(), filepath.Join(dir, "objects-")) || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy costly: context deadline exceeded") {
			t.Errorf("kept %v: %v; want the evaluation stopped at the deadline, naming the object, its file and the policy", keep, err)
		}
	}
}
